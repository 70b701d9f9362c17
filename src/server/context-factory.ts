import path from 'node:path';
import type { Config } from './config/config.ts';
import type { AppContext } from './context.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { createDiskStorage, type FileStorage } from './storage/file-storage.ts';
import { copyDiskFiles, createDatabaseStorage } from './storage/database-storage.ts';
import { outlastOutages } from './revisions/revision-outage.ts';
import { createSearchService } from './search/search.service.ts';
import { httpEmbedder } from './search/embeddings.ts';
import { createRevisionWatch } from './revisions/revision-watch.ts';
import { createPasswords } from './accounts/password.ts';

/** The search index's snapshot in the data folder (search-snapshot.ts). */
export const SEARCH_SNAPSHOT_FILE = 'search-index.snapshot';

/** Opens the database (migrating it) and the file storage: everything a server or a CLI command runs on. */
export async function createContext(config: Config): Promise<AppContext> {
  const database = openDatabase(config.database);
  let storage: FileStorage;
  try {
    await migrateToLatest(database);
    storage = createDiskStorage(config.fileStorage.dir);
    if (config.fileStorage.kind === 'database') {
      // Files an earlier install kept on disk move into the database, once; until then they are read from there.
      await copyDiskFiles(database.db, config.fileStorage.dir);
      storage = createDatabaseStorage(database.db, config.fileStorage.dir);
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  const revisions = outlastOutages(createRevisionWatch(database.db, config.cache.revisionCheckMs));
  return {
    config,
    database,
    db: database.db,
    storage,
    search: createSearchService(database.db, {
      revision: () => revisions.current(),
      snapshot: config.search.snapshot
        ? { file: path.join(config.dataDir, SEARCH_SNAPSHOT_FILE) }
        : undefined,
      embeddings: config.embeddings
        ? { ...config.embeddings, embedder: httpEmbedder(config.embeddings) }
        : undefined,
    }),
    revisions,
    passwords: createPasswords(config.passwords),
  };
}
