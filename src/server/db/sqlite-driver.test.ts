import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from './constraint-errors.ts';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { isConnectionFailure, isDatabaseUnavailable } from './unavailable.ts';

/**
 * Our SQLite dialect on node:sqlite, against a real database file: what the rest of the server relies on, as the
 * driver before it (better-sqlite3) behaved.
 */
describe('the SQLite driver', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-sqlite-driver-'));
  const file = path.join(folder, 'test.db');
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = openDatabase({ dialect: 'sqlite', file, timeoutMs: 300 });
    await sql`create table t (id integer primary key, name text unique, data blob)`.execute(handle.db);
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('binds undefined as NULL, and refuses a value SQLite cannot hold instead of binding the rest a place early', async () => {
    const { rows } = await sql<{
      empty: number;
      next: string;
    }>`select ${undefined} is null as empty, ${'x'} as next`.execute(handle.db);
    expect(rows).toEqual([{ empty: 1, next: 'x' }]);
    await expect(sql`select ${new Date(0)} as a, ${'x'} as b`.execute(handle.db)).rejects.toThrow(
      'cannot be bound to SQLite parameter 1',
    );
  });

  it('gives blobs back as Buffers, and tells rows from a write with `returning`', async () => {
    const inserted = await handle.db
      .insertInto('t' as never)
      .values({ name: 'a', data: Buffer.from('bytes') } as never)
      .returning(['id' as never])
      .execute();
    expect(inserted).toEqual([{ id: 1 }]);
    const { rows } = await sql<{ data: Buffer }>`select data from t where id = 1`.execute(handle.db);
    expect(Buffer.isBuffer(rows[0]?.data)).toBe(true);
    expect(rows[0]?.data.toString()).toBe('bytes');
    const updated = await sql`update t set name = 'b' where id = 1`.execute(handle.db);
    expect(updated.numAffectedRows).toBe(1n);
  });

  it('names a duplicate as SQLite does, so it is answered 409 and not 500', async () => {
    const failure = await sql`insert into t (name) values ('b')`.execute(handle.db).catch((error) => error);
    expect(failure).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE', errcode: 2067 });
    expect(isUniqueViolation(failure)).toBe(true);
    const again = await sql`insert into t (id) values (1)`.execute(handle.db).catch((error) => error);
    expect(again).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(isUniqueViolation(again)).toBe(true);
  });

  it('names a write lock held elsewhere past the wait as busy (503), and leaves the connection usable', async () => {
    const other = new DatabaseSync(file);
    other.exec('begin immediate');
    try {
      const failure = await sql`insert into t (name) values ('c')`.execute(handle.db).catch((error) => error);
      expect(failure).toMatchObject({ code: 'SQLITE_BUSY' });
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(isConnectionFailure(failure)).toBe(false);
      // Reads go on meanwhile (WAL).
      const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(handle.db);
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      other.exec('rollback');
      other.close();
    }
    await sql`insert into t (name) values ('c')`.execute(handle.db);
  });

  it('rolls a failed transaction back whole, and the next one goes through', async () => {
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await sql`insert into t (name) values ('d')`.execute(trx);
        await sql`insert into t (name) values ('d')`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    const { rows } = await sql<{ n: number }>`select count(*) as n from t where name = 'd'`.execute(
      handle.db,
    );
    expect(rows).toEqual([{ n: 0 }]);
    await handle.db.transaction().execute(async (trx) => {
      await sql`insert into t (name) values ('d')`.execute(trx);
    });
  });
});
