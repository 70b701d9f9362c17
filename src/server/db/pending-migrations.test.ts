import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { createTestEnvironment, testDialects } from '../testing/test-context.ts';
import { migrateToLatest, openDatabase, pendingMigrations } from './database.ts';
import { migrationsFor } from './migrations/index.ts';

describe.each(testDialects())('pending migrations on %s', (dialect) => {
  it('names every migration of a new database, those after a partial one, and none once migrated', async () => {
    const known = Object.keys(migrationsFor(dialect)).sort();
    // Another help centre fully migrated in the same database server must not count for this one.
    const neighbour = await createTestEnvironment(dialect);
    const neighbourHandle = openDatabase(neighbour.config.database);
    const environment = await createTestEnvironment(dialect);
    const handle = openDatabase(environment.config.database);
    try {
      await migrateToLatest(neighbourHandle);
      expect(await pendingMigrations(handle)).toEqual(known);
      // Asking changes nothing.
      const tables = await handle.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(
        tables.filter((table) => table.name === 'kysely_migration' && table.schema === environment.schema),
      ).toEqual([]);

      const migrator = new Migrator({
        db: handle.db,
        provider: { getMigrations: async () => migrationsFor(dialect) },
        ...(environment.schema ? { migrationTableSchema: environment.schema } : {}),
      });
      const { error } = await migrator.migrateTo(known[1]!);
      expect(error).toBeUndefined();
      expect(await pendingMigrations(handle)).toEqual(known.slice(2));

      await migrateToLatest(handle);
      expect(await pendingMigrations(handle)).toEqual([]);
    } finally {
      await handle.close();
      await neighbourHandle.close();
      await environment.cleanup();
      await neighbour.cleanup();
    }
  });
});
