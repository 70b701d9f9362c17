import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { Config } from '../../server/config/config.ts';
import { BackupError, type BackupHeader } from '../../server/features/backup/backup-format.ts';
import { NotEmptyError, restoreBackup, writeBackup } from '../../server/features/backup/backup.service.ts';
import { CliError } from '../cli-error.ts';
import { synopsisOf } from '../usage.ts';
import { progressBar } from '../progress.ts';
import { withContext } from '../with-context.ts';

function describe(header: BackupHeader): string {
  const tables = Object.entries(header.tables)
    .filter(([, count]) => count > 0)
    .map(([table, count]) => `${count} ${table.replaceAll('_', ' ')}`)
    .join(', ');
  const megabytes = (header.blobs.bytes / 1024 / 1024).toFixed(1);
  return `${tables || 'no rows'}; ${header.blobs.count} stored files (${megabytes} MB)`;
}

/** When and where a backup was taken, by which release, and what a restore migrated it from. */
function origin(header: BackupHeader): string {
  const maker = header.upgraded_from ? header.upgraded_from.release : header.release;
  const taken = `taken ${header.created_at} on ${header.source}${maker ? ` by signpost ${maker}` : ''}`;
  if (!header.upgraded_from) return taken;
  return `${taken}; upgraded from database schema ${header.upgraded_from.schema} to ${header.schema}`;
}

function fileArgument(args: string[], usage: string) {
  const { values, positionals } = parseArgs({
    args,
    options: { force: { type: 'boolean' } },
    allowPositionals: true,
  });
  const [file, ...extra] = positionals;
  if (!file || extra.length) throw new CliError(usage);
  return { file, force: values.force === true };
}

export async function runBackup(args: string[], config: Config): Promise<void> {
  const { file, force } = fileArgument(args, synopsisOf('backup'));
  if (fs.existsSync(file) && !force) throw new CliError(`${file} exists; add --force to replace it`);
  const bar = progressBar();
  try {
    const header = await withContext(config, (ctx) =>
      writeBackup(ctx, file, { onProgress: (done, total, label) => bar.update(done, total, label) }),
    );
    bar.done();
    console.log(
      `backed up ${describe(header)} to ${file} (signpost ${header.release}, schema ${header.schema})`,
    );
  } catch (error) {
    bar.done();
    if (error instanceof BackupError) throw new CliError(`no backup was written: ${error.message}`);
    throw error;
  }
}

export async function runRestore(args: string[], config: Config): Promise<void> {
  const { file, force } = fileArgument(args, synopsisOf('restore'));
  const bar = progressBar();
  try {
    const header = await withContext(config, (ctx) =>
      restoreBackup(ctx, file, { force, onProgress: (done, total, label) => bar.update(done, total, label) }),
    );
    bar.done();
    console.log(`restored ${describe(header)} from ${file} (${origin(header)})`);
  } catch (error) {
    bar.done();
    if (error instanceof BackupError || error instanceof NotEmptyError) {
      throw new CliError(`nothing was changed: ${error.message}`);
    }
    throw error;
  }
}
