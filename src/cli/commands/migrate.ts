import type { Config } from '../../server/config/config.ts';
import { migrateToLatest, openDatabase } from '../../server/db/database.ts';

export async function runMigrate(_args: string[], config: Config): Promise<void> {
  const database = openDatabase(config.database);
  try {
    const applied = await migrateToLatest(database);
    console.log(applied.length ? `applied ${applied.join(', ')}` : 'the database is up to date');
  } finally {
    await database.close();
  }
}
