import { Migrator } from 'kysely/migration';
import { expect } from 'vitest';
import type { Dialect } from '../db/schema-helpers.ts';
import { openDatabase } from '../db/database.ts';
import { migrationsFor } from '../db/migrations/index.ts';
import { createTestEnvironment } from './test-context.ts';

/**
 * A fresh database migrated only up to `name`, to put rows in as an older version stored them before migrating the
 * rest (`migrateToLatest(handle)`). Close the handle and clean the environment up after.
 */
export async function openAtMigration(
  dialect: Dialect,
  name: string,
  overrides: Record<string, string> = {},
) {
  const environment = await createTestEnvironment(dialect, overrides);
  const handle = openDatabase(environment.config.database);
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrationsFor(dialect) },
    ...(environment.schema ? { migrationTableSchema: environment.schema } : {}),
  });
  expect((await migrator.migrateTo(name)).error).toBeUndefined();
  return { environment, handle };
}
