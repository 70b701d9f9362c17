import { ConfigError, loadConfig, type Config } from '../server/config/config.ts';
import { CliError } from './cli-error.ts';

const USAGE = `Usage: signpost <command> [options]

Commands:
  serve                              start the help centre (what npm start runs)
  migrate                            bring the database schema up to date
  import DIR [--prune]               load a Markdown content folder; --prune removes what DIR no longer has
  import DIR --replace               make DIR the whole content: the demo and everything else not in DIR goes
  export DIR [--force]               write the help centre as a Markdown content folder
  seed --demo                        load the demo help centre
  user add --email E --name N --password P [--admin]
  user unlock EMAIL                  clear the wrong passwords counted against an account
  branding show                      print the branding
  branding set KEY=VALUE ...         change branding (logo=PATH|URL, background=PATH|URL, lang=ru, ...)
  tickets list [--limit N]           the newest support requests and where they were delivered
  tickets show ID                    one request: its fields, description, files and delivery state
  search-report [--limit N] [--weeks N]
                                     queries: most frequent, found nothing, results not opened;
                                     unhelpful articles; requests avoided by suggestions per week
  backup FILE [--force]              write the whole help centre, files included, to one file
  restore FILE [--force]             load a backup into an empty database (--force replaces everything)

Configuration comes from the environment (DATABASE_URL, DATA_DIR, ...): see the README.`;

type Command = (args: string[], config: Config) => Promise<void>;

// Loaded on demand: a command pays only for the modules it uses.
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.ts')).runServe,
  migrate: async () => (await import('./commands/migrate.ts')).runMigrate,
  import: async () => (await import('./commands/content.ts')).runImport,
  export: async () => (await import('./commands/content.ts')).runExport,
  seed: async () => (await import('./commands/content.ts')).runSeed,
  user: async () => (await import('./commands/user.ts')).runUser,
  branding: async () => (await import('./commands/branding.ts')).runBranding,
  'search-report': async () => (await import('./commands/search-report.ts')).runSearchReport,
  tickets: async () => (await import('./commands/tickets.ts')).runTickets,
  backup: async () => (await import('./commands/backup.ts')).runBackup,
  restore: async () => (await import('./commands/backup.ts')).runRestore,
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return name ? 0 : 1;
  }
  const load = COMMANDS[name];
  if (!load) {
    console.error(`signpost: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  try {
    const config = loadConfig();
    const command = await load();
    await command(rest, config);
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) console.error(`signpost: configuration: ${error.message}`);
    else if (error instanceof CliError) console.error(`signpost ${name}: ${error.message}`);
    else if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      console.error(`signpost ${name}: ${error.message}`);
    } else {
      console.error(`signpost ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return 1;
  }
}
