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
