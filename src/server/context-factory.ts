import path from 'node:path';
import type { Config } from './config/config.ts';
import type { AppContext } from './context.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { createDiskStorage } from './storage/file-storage.ts';
import { createSearchService } from './features/search/search.service.ts';

/** Opens the database (migrating it) and the file storage: everything a server or a CLI command runs on. */
export async function createContext(config: Config): Promise<AppContext> {
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return {
    config,
    database,
    db: database.db,
    storage: createDiskStorage(path.join(config.dataDir, 'files')),
    search: createSearchService(database.db),
  };
}
