import type { Config } from './config/config.ts';
import type { DatabaseHandle, Db } from './db/database.ts';
import type { FileStorage } from './storage/file-storage.ts';
import type { SearchService } from './search/search.service.ts';
import type { RevisionWatch } from './revisions/revision-watch.ts';
import type { Passwords } from './accounts/password.ts';

/** What every feature needs from the running server; built once in app.ts (and by the CLI). */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  storage: FileStorage;
  search: SearchService;
  /** The revision public answers depend on, read at most every REVISION_CHECK_MS. */
  revisions: RevisionWatch;
  /** Password hashing at the configured cost, a few hashes at a time (PASSWORD_HASHING_CONCURRENCY). */
  passwords: Passwords;
}
