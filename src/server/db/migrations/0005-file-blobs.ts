import { sql, type Kysely } from 'kysely';
import { type Dialect, idColumn, timeType } from '../schema-helpers.ts';

/**
 * Stored files' bytes in the database (storage/database-storage.ts), so every server behind a load balancer reads
 * the same files. A file is a row in `file_blobs` and its bytes are rows of at most 512 KiB in `file_blob_chunks`:
 * a download reads one chunk at a time, never a whole 25 MB value. `key` (the SHA-256) stays empty while an upload
 * is being written, so nobody sees a file before all of its bytes are in.
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await db.schema
      .createTable('file_blobs')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('key', 'varchar(64)', (c) => c.unique())
      .addColumn('size', timeType(dialect), (c) => c.notNull())
      .addColumn('created_at', timeType(dialect), (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('file_blob_chunks')
      .addColumn('blob_id', 'integer', (c) => c.notNull().references('file_blobs.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .addPrimaryKeyConstraint('file_blob_chunks_pk', ['blob_id', 'seq'])
      .execute();
    // Files are mostly compressed already (images, archives): storing them as they are spares the CPU.
    if (dialect === 'postgres')
      await sql`alter table file_blob_chunks alter column bytes set storage external`.execute(db);
  };
}
