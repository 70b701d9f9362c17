import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Writes a tree of files (path → text or bytes) into a new temporary folder and answers its path. */
export function writeFolder(files: Record<string, string | Buffer>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-folder-'));
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
  return root;
}

/** Every file below a folder, as path → bytes. */
export function readFolder(root: string): Map<string, Buffer> {
  const result = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else result.set(path.relative(root, full).split(path.sep).join('/'), fs.readFileSync(full));
    }
  };
  walk(root);
  return result;
}

/**
 * A folder's files as an export made before exports wrote ids: no `_origin.yml`, and no `id:` line in any front
 * matter. Also how two exports of different databases compare, since each database has its own ids.
 */
export function withoutIds(files: Map<string, Buffer>): Map<string, Buffer> {
  return new Map(
    [...files]
      .filter(([name]) => name !== '_origin.yml')
      .map(([name, bytes]) => [
        name,
        name.endsWith('.md') ? Buffer.from(bytes.toString('utf8').replace(/^id: .*\n/m, '')) : bytes,
      ]),
  );
}
