import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES = path.resolve(import.meta.dirname, '..', 'features');
/** The features whose handlers answer what visitors read: each takes the Reader that readerRoute resolved. */
const READING_FEATURES = ['knowledge', 'search', 'settings', 'pages'];

/** Where a handler's code reads the query's `lang` itself, as "file:line". */
function ownLangReads(files: { file: string; text: string }[]): string[] {
  return files.flatMap(({ file, text }) =>
    text
      .split('\n')
      .flatMap((line, index) =>
        /\bquery\??\.lang\b|\bquery\[['"]lang['"]\]|\{[^}]*\blang\b[^}]*\}\s*=\s*(request\.)?query\b/.test(line)
          ? [`${path.basename(file)}:${index + 1}`]
          : [],
      ),
  );
}

const sources = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => ({ file: path.join(dir, name), text: fs.readFileSync(path.join(dir, name), 'utf8') }));

describe('the reading of a public request', () => {
  it('is resolved by readerRoute alone: no knowledge, search, settings or page handler reads ?lang= itself', () => {
    expect(READING_FEATURES.flatMap((feature) => ownLangReads(sources(path.join(FEATURES, feature))))).toEqual([]);
  });

  it('finds a handler that does (the check itself)', () => {
    const found = ownLangReads([
      { file: 'a.routes.ts', text: 'getSections(source, await readingFor(db, request.query.lang));' },
      { file: 'b.routes.ts', text: 'const { text, limit, lang } = request.query;' },
      { file: 'c.routes.ts', text: "brandingIn(stored, query['lang']);" },
      { file: 'd.routes.ts', text: 'getSections(source, reader);' },
    ]);
    expect(found).toEqual(['a.routes.ts:1', 'b.routes.ts:1', 'c.routes.ts:1']);
  });
});
