import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = import.meta.dirname;

/** The folder a server file belongs to: `features/X` for a feature, the first folder for the rest, else the file. */
function folderOf(file: string): string {
  const parts = path.relative(SERVER, file).split(path.sep);
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, '');
  return parts[0] === 'features' ? `features/${parts[1]}` : parts[0]!;
}

/** Which server folders each folder imports (relative imports of files that are not tests). */
function folderImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
        const from = folderOf(file);
        for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
          const target = path.resolve(dir, spec!);
          if (!target.startsWith(SERVER + path.sep)) continue;
          const to = folderOf(target);
          if (to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
        }
      }
    }
  };
  visit(SERVER);
  return graph;
}

/** Groups of folders that import each other, directly or round a loop (Tarjan's strongly connected components). */
function loops(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found;
}

describe('the server’s folders', () => {
  it('import each other in one direction only: no two folders reach each other', () => {
    expect(loops(folderImports())).toEqual([]);
  });

  it('finds a loop when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(loops(graph)).toEqual([['a', 'b', 'c']]);
  });
});

const SRC = path.resolve(SERVER, '..');
const MIGRATIONS = path.join(SERVER, 'db', 'migrations');

/**
 * Imports of a migration from outside db/, as "file -> migration": a migration is the schema's history, frozen once
 * released, and what code must agree with it lives in db/schema-values.ts. The list of migrations (index.ts) may be
 * imported: it is how the database and the test harness run them.
 */
function migrationImports(files: { file: string; text: string }[]): string[] {
  return files.flatMap(({ file, text }) => {
    if (file.startsWith(path.join(SERVER, 'db') + path.sep)) return [];
    return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)]
      .map(([, spec]) => path.resolve(path.dirname(file), spec!))
      .filter((target) => path.dirname(target) === MIGRATIONS && path.basename(target) !== 'index.ts')
      .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
  });
}

function sourceFiles(dir: string): { file: string; text: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [{ file, text: fs.readFileSync(file, 'utf8') }] : [];
  });
}

describe('the migrations', () => {
  it('are imported by nothing outside db/ but their list', () => {
    expect(migrationImports(sourceFiles(SRC))).toEqual([]);
  });

  it('finds such an import, static or dynamic, when there is one (the check itself)', () => {
    const repository = path.join(SERVER, 'features', 'x', 'x.repository.ts');
    const found = migrationImports([
      { file: repository, text: "import { A } from '../../db/migrations/0012-ticket-search.ts';" },
      {
        file: repository,
        text: "const m = await import('../../db/migrations/0017-ticket-search-recency.ts');",
      },
      { file: repository, text: "import { migrationsFor } from '../../db/migrations/index.ts';" },
      {
        file: path.join(SERVER, 'db', 'database.ts'),
        text: "import { B } from './migrations/0026-sender-access.ts';",
      },
    ]);
    expect(found).toEqual([
      'server/features/x/x.repository.ts -> server/db/migrations/0012-ticket-search.ts',
      'server/features/x/x.repository.ts -> server/db/migrations/0017-ticket-search-recency.ts',
    ]);
  });
});

/**
 * Imports that reach past a domain's index, as "file -> target": a server folder with an index.ts (languages/) is a
 * domain whose index is its face, so code outside the folder imports the index and never the files behind it.
 */
function indexBypasses(files: { file: string; text: string }[], domains: string[]): string[] {
  return files.flatMap(({ file, text }) =>
    [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)]
      .map(([, spec]) => path.resolve(path.dirname(file), spec!))
      .filter((target) =>
        domains.some(
          (domain) =>
            target.startsWith(domain + path.sep) &&
            !file.startsWith(domain + path.sep) &&
            target !== path.join(domain, 'index.ts'),
        ),
      )
      .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
  );
}

/** The server's folders that have an index.ts. */
const DOMAINS = fs
  .readdirSync(SERVER, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(SERVER, entry.name, 'index.ts')))
  .map((entry) => path.join(SERVER, entry.name));

describe('the domains', () => {
  it('are reached through their index only, from anywhere outside them', () => {
    expect(DOMAINS).toContain(path.join(SERVER, 'languages'));
    expect(indexBypasses(sourceFiles(SRC), DOMAINS)).toEqual([]);
  });

  it('finds an import past the index, static or dynamic, when there is one (the check itself)', () => {
    const domain = path.join(SERVER, 'languages');
    const service = path.join(SERVER, 'features', 'x', 'x.service.ts');
    const found = indexBypasses(
      [
        { file: service, text: "import { siteLanguage } from '../../languages/site-languages.ts';" },
        { file: service, text: "const l = await import('../../languages/languages.ts');" },
        { file: service, text: "import { siteLanguage } from '../../languages/index.ts';" },
        { file: path.join(domain, 'index.ts'), text: "export { isLanguage } from './languages.ts';" },
      ],
      [domain],
    );
    expect(found).toEqual([
      'server/features/x/x.service.ts -> server/languages/site-languages.ts',
      'server/features/x/x.service.ts -> server/languages/languages.ts',
    ]);
  });
});

const WEB = path.join(SRC, 'web');

/**
 * The folder a web file belongs to: a feature (`features/X`, `admin/features/X`), else its first folder inside the
 * site or the admin app (`lib`, `admin/lib`, `portal`...), else the file itself (`routes.tsx` apart from `routes/`).
 */
function webFolderOf(file: string): string {
  const parts = path.relative(WEB, file).split(path.sep);
  const [app, rest] = parts[0] === 'admin' ? ['admin/', parts.slice(1)] : ['', parts];
  if (rest.length === 1) return app + rest[0];
  return app + (rest[0] === 'features' ? `features/${rest[1]}` : rest[0]);
}

/** Which web folders each folder imports (relative imports of files that are not tests). */
function webFolderImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { file, text } of sourceFiles(WEB)) {
    if (/\.test\.tsx?$/.test(file)) continue;
    const from = webFolderOf(file);
    for (const [, spec] of text.matchAll(/from '(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), spec!);
      if (!target.startsWith(WEB + path.sep)) continue;
      const to = webFolderOf(target);
      if (to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

describe('the web client’s folders', () => {
  it('import each other in one direction only: features, the admin app and the portal included', () => {
    const graph = webFolderImports();
    expect(graph.get('admin/features/editor')).toBeDefined();
    expect(graph.get('portal')).toBeDefined();
    expect(loops(graph)).toEqual([]);
  });

  it('names a feature, a shared part and a lone file by their folder', () => {
    expect(webFolderOf(path.join(WEB, 'admin', 'features', 'tree', 'tree-item.tsx'))).toBe(
      'admin/features/tree',
    );
    expect(webFolderOf(path.join(WEB, 'admin', 'lib', 'tree-model.ts'))).toBe('admin/lib');
    expect(webFolderOf(path.join(WEB, 'features', 'search', 'search-box.tsx'))).toBe('features/search');
    expect(webFolderOf(path.join(WEB, 'routes.tsx'))).toBe('routes.tsx');
    expect(webFolderOf(path.join(WEB, 'routes', 'layout.tsx'))).toBe('routes');
  });
});
