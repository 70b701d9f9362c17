import fs from 'node:fs';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';

/** The keys of every stored file, sorted, whichever storage (disk or database) the context runs on. */
export async function storedKeys(ctx: AppContext): Promise<string[]> {
  if (ctx.config.fileStorage.kind === 'database') {
    const { rows } = await sql<{ key: string }>`
      select key from file_blobs where key is not null order by key
    `.execute(ctx.db);
    return rows.map((row) => row.key).sort();
  }
  const root = ctx.config.fileStorage.dir;
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /^[0-9a-f]{64}$/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** Uploads written only in part (a temporary file, an unnamed blob): none may stay behind a refused upload. */
export async function partialUploads(ctx: AppContext): Promise<number> {
  if (ctx.config.fileStorage.kind === 'database') {
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from file_blobs where key is null
    `.execute(ctx.db);
    return Number(rows[0]?.n ?? 0);
  }
  const root = ctx.config.fileStorage.dir;
  if (!fs.existsSync(root)) return 0;
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.tmp')).length;
}
