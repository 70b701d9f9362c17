import { ConfigError, loadConfig, type Config } from '../server/config/config.ts';
import { RELEASE } from '../server/lib/release.ts';
import { CliError } from './cli-error.ts';
import { helpOf, isCommandName, overview, type CommandName } from './usage.ts';

type Command = (args: string[], config: Config) => Promise<void>;

// Loaded on demand: a command pays only for the modules it uses.
const COMMANDS: Record<CommandName, () => Promise<Command>> = {
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

/** Asks for help anywhere among its arguments (before a `--`, after which everything is an argument). */
const asksForHelp = (args: string[]) => {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
};

/** `signpost 0.2.0`, and what an operator asking for support is asked next: the schema and the runtime. */
async function version(): Promise<string> {
  // Migration names are the same on both databases.
  const { latestMigration } = await import('../server/db/database.ts');
  return `signpost ${RELEASE} (database schema ${latestMigration('sqlite')}, Node.js ${process.version})`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(await version());
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    console.log(overview());
    return name ? 0 : 1;
  }
  if (name === 'help') {
    const [topic] = rest;
    if (topic && isCommandName(topic)) {
      console.log(helpOf(topic));
      return 0;
    }
    console.error(`signpost: no command "${topic}"\n\n${overview()}`);
    return 2;
  }
  if (!isCommandName(name)) {
    console.error(`signpost: unknown command "${name}"\n\n${overview()}`);
    return 2;
  }
  // Help does nothing else: it reads no configuration and opens no database.
  if (asksForHelp(rest)) {
    console.log(helpOf(name));
    return 0;
  }
  const load = COMMANDS[name];
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
