import type { Config } from './config/config.ts';
import type { DatabaseHandle, Db } from './db/database.ts';
import type { FileStorage } from './storage/file-storage.ts';
import type { SearchService } from './features/search/search.service.ts';

/** What every feature needs from the running server; built once in app.ts (and by the CLI). */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  storage: FileStorage;
  search: SearchService;
}
