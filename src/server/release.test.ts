import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './lib/project-root.ts';
import { RELEASE } from './lib/release.ts';

const read = (file: string) => fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as { version: string; license: string; files: string[] };

/** The Markdown an operator or a developer follows: the README, the changelog, docs/ and the fixtures' own. */
function operatorDocs(): string[] {
  const under = (folder: string) =>
    fs
      .readdirSync(path.join(PROJECT_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.md'))
      .map((name) => path.join(folder, name));
  return ['README.md', 'CHANGELOG.md', ...under('docs'), ...under('test-data')];
}

describe('the release', () => {
  it('is the one version package.json gives, with a changelog entry', () => {
    expect(RELEASE).toBe(manifest.version);
    expect(RELEASE).toMatch(/^\d+\.\d+\.\d+$/);
    expect(read('CHANGELOG.md')).toMatch(new RegExp(`^## ${RELEASE.replaceAll('.', '\\.')} `, 'm'));
  });

  it('carries the MIT licence its package.json names, in the package too', () => {
    expect(manifest.license).toBe('MIT');
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
    // npm packs LICENSE and README itself; the rest an operator needs is listed.
    for (const file of ['CHANGELOG.md', 'docs/deploy/', 'docs/upgrading.md'])
      expect(manifest.files).toContain(file);
  });

  it("keeps Font Awesome's licence notice at the top of the built stylesheet holding its rules", () => {
    const banner = /^\/\*![\s\S]*?\*\//.exec(
      read('node_modules/@fortawesome/fontawesome-free/css/all.min.css'),
    )?.[0];
    expect(banner).toContain('Font Awesome Free');
    const assets = path.join(PROJECT_ROOT, 'dist/web/assets');
    const holding = fs
      .readdirSync(assets)
      .filter((name) => name.endsWith('.css'))
      .map((name) => fs.readFileSync(path.join(assets, name), 'utf8'))
      .filter((css) => css.includes('"Font Awesome 7 '));
    expect(holding.length).toBeGreaterThan(0);
    for (const css of holding) expect(css.startsWith(`${banner}\n`)).toBe(true);
  });

  it('never has an operator fetch a package from the registry by name: npx only with --no-install', () => {
    const offending = operatorDocs().flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) =>
          /\bnpx (?!--no-install\b)/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(offending).toEqual([]);
  });
});
