import { parseArgs } from 'node:util';
import type { Config } from '../../server/config/config.ts';
import { exportFolder, ExportError } from '../../server/features/content-folder/export-folder.ts';
import {
  importFolder,
  type ImportOptions,
  type ImportSummary,
} from '../../server/features/content-folder/import-folder.ts';
import { FolderErrors } from '../../server/features/content-folder/read-folder.ts';
import { seedDemo } from '../../server/features/content-folder/demo.service.ts';
import { CliError } from '../cli-error.ts';
import { synopsisOf } from '../usage.ts';
import { progressBar } from '../progress.ts';
import { withContext } from '../with-context.ts';

function printSummary(summary: ImportSummary) {
  for (const warning of summary.warnings) console.error(`warning: ${warning}`);
  for (const kind of ['sections', 'categories', 'articles', 'files', 'translations'] as const) {
    const t = summary[kind];
    console.log(
      `${kind}: ${t.created} created, ${t.updated} updated, ${t.unchanged} unchanged, ${t.deleted} deleted`,
    );
  }
  const written = summary.deletedWritten;
  if (written.length) {
    const shown = written.slice(0, 10).map((title) => `"${title}"`);
    if (written.length > shown.length) shown.push(`and ${written.length - shown.length} more`);
    console.log(
      `deleted ${written.length} article${written.length === 1 ? '' : 's'} written in the admin: ${shown.join(', ')}`,
    );
  }
  if (summary.synonyms) console.log("synonyms: replaced by the folder's _synonyms.yml");
  for (const note of summary.notes) console.log(`branding: ${note}`);
}

async function runImportOf(
  config: Config,
  dir: string,
  options: Pick<ImportOptions, 'prune' | 'replace'>,
  load = importFolder,
) {
  const bar = progressBar();
  try {
    const summary = await withContext(config, (ctx) =>
      load(ctx, dir, { ...options, onProgress: (done, total, label) => bar.update(done, total, label) }),
    );
    bar.done();
    printSummary(summary);
  } catch (error) {
    bar.done();
    if (error instanceof FolderErrors) throw new CliError(`nothing was changed: ${error.message}`);
    throw error;
  }
}

export async function runImport(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { prune: { type: 'boolean' }, replace: { type: 'boolean' } },
    allowPositionals: true,
  });
  const [dir, ...extra] = positionals;
  if (!dir || extra.length) throw new CliError(synopsisOf('import'));
  if (values.prune && values.replace)
    throw new CliError(`--prune and --replace: give one; ${synopsisOf('import')}`);
  await runImportOf(config, dir, { prune: values.prune === true, replace: values.replace === true });
}

export async function runExport(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { force: { type: 'boolean' } },
    allowPositionals: true,
  });
  const [dir, ...extra] = positionals;
  if (!dir || extra.length) throw new CliError(synopsisOf('export'));
  try {
    const summary = await withContext(config, (ctx) =>
      exportFolder(ctx, dir, { force: values.force === true }),
    );
    console.log(
      `exported ${summary.sections} sections, ${summary.categories} categories, ${summary.articles} articles and ${summary.files} files to ${dir}` +
        (summary.translations ? `, with ${summary.translations} translations beside them` : ''),
    );
  } catch (error) {
    if (error instanceof ExportError) throw new CliError(error.message);
    throw error;
  }
}

export async function runSeed(args: string[], config: Config): Promise<void> {
  const { values } = parseArgs({ args, options: { demo: { type: 'boolean' } } });
  if (!values.demo) throw new CliError(synopsisOf('seed'));
  await runImportOf(config, 'demo', {}, (ctx, _dir, options) => seedDemo(ctx, options));
}
