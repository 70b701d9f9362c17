import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Character references are read by one function, decodeEntities in src/shared/html.ts, on both sides. */

const SRC = path.resolve(import.meta.dirname, '..');

/** The source files of src (not tests), relative to it. */
function sourceFiles(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [path.relative(SRC, file)]
      : [];
  });
}

describe('character references', () => {
  it('are read in one place: no other source file replaces one by hand', () => {
    // A regular expression that starts with a reference (`/&nbsp;/`, `/&#(\d+);/`, `/&(#x?…|\w+);/`) is a decoder.
    const decoder = /\/&(#|\(|amp;|lt;|gt;|quot;|apos;|nbsp;|#39;)/;
    const found = sourceFiles().filter(
      (file) =>
        file !== path.join('shared', 'html.ts') &&
        decoder.test(fs.readFileSync(path.join(SRC, file), 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
