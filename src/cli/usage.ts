/**
 * What each `signpost` command takes, in one place: `signpost --help` lists them, `signpost COMMAND --help` prints
 * one in full, and a command's wrong arguments are answered with its synopsis.
 */
export interface CommandUsage {
  /** The forms of the command, without `signpost `; one line each. */
  synopsis: readonly string[];
  /** One line for the list of commands. */
  summary: string;
  /** The options and arguments, explained; printed by `signpost COMMAND --help` below the synopsis. */
  details?: readonly string[];
}

export const COMMAND_USAGE = {
  serve: {
    synopsis: ['serve'],
    summary: 'start the help centre (what npm start runs); migrates the database first',
  },
  migrate: {
    synopsis: ['migrate'],
    summary: 'bring the database schema up to date',
  },
  import: {
    synopsis: ['import DIR [--prune | --replace]'],
    summary: 'load a Markdown content folder',
    details: [
      '--prune     delete what an earlier import brought in and DIR no longer has',
      '--replace   make DIR the whole content: everything not in DIR goes, the demo included',
    ],
  },
  export: {
    synopsis: ['export DIR [--force]'],
    summary: 'write the help centre as a Markdown content folder',
    details: ['--force     replace what DIR holds (dot-files such as .git are kept)'],
  },
  seed: {
    synopsis: ['seed --demo'],
    summary: 'load the demo help centre',
  },
  user: {
    synopsis: ['user add --email E --name N [--admin | --agent] [--password P]', 'user unlock EMAIL'],
    summary: 'create a user; clear the wrong passwords counted against an account',
    details: [
      'roles       --admin: an administrator (everything); --agent: the team (requests and replies);',
      '            neither: a customer',
      'password    asked for twice when run in a terminal, else read from the first line of standard input',
      '            (printf "%s\\n" "$PASSWORD" | signpost user add ...); 8 characters or more.',
      '            --password P works too, but leaves the password in the process list and the shell history',
      'unlock      forget the wrong passwords counted against EMAIL, so its owner can sign in at once',
    ],
  },
  branding: {
    synopsis: ['branding show', 'branding set KEY=VALUE ...'],
    summary: 'print or change the branding',
    details: [
      'keys        knowledge_enabled, portal_enabled (true/false), knowledge_title, site_title, lang,',
      '            project_id, logo and background (an image file or an http(s) URL), footer_links',
      "            ('Status=https://status.example.com;Privacy=/privacy')",
    ],
  },
  tickets: {
    synopsis: ['tickets list [--limit N]', 'tickets show ID'],
    summary: 'the newest support requests, or one in full, with where they were delivered',
  },
  'search-report': {
    synopsis: ['search-report [--limit N] [--weeks N]'],
    summary: 'what readers search for and do not find; unhelpful articles; requests avoided',
    details: [
      '--limit N   rows per list (20, at most 500)',
      '--weeks N   weeks of avoided requests (12, at most 52)',
    ],
  },
  backup: {
    synopsis: ['backup FILE [--force]'],
    summary: 'write the whole help centre, files included, to one file',
    details: ['--force     replace FILE if it exists'],
  },
  restore: {
    synopsis: ['restore FILE [--force]'],
    summary: "load a backup into an empty database, migrating an older release's backup forward",
    details: ['--force     replace everything the database holds'],
  },
} as const satisfies Record<string, CommandUsage>;

export type CommandName = keyof typeof COMMAND_USAGE;

export const isCommandName = (name: string): name is CommandName => Object.hasOwn(COMMAND_USAGE, name);

/** `usage: signpost A | signpost B`: the answer to wrong arguments. */
export function synopsisOf(name: CommandName): string {
  return `usage: ${COMMAND_USAGE[name].synopsis.map((form) => `signpost ${form}`).join(' | ')}`;
}

/** `signpost NAME --help`. */
export function helpOf(name: CommandName): string {
  const usage: CommandUsage = COMMAND_USAGE[name];
  const lines = [
    `usage: ${usage.synopsis.map((form) => `signpost ${form}`).join('\n       ')}`,
    '',
    usage.summary,
  ];
  if (usage.details) lines.push('', ...usage.details.map((line) => `  ${line}`));
  lines.push('', 'Configuration comes from the environment (DATABASE_URL, DATA_DIR, ...): see the README.');
  return lines.join('\n');
}

/** `signpost --help`: every command's forms, each command with its summary. */
export function overview(): string {
  const lines = [
    'usage: signpost <command> [options]',
    '       signpost <command> --help',
    '       signpost --version',
  ];
  lines.push('', 'Commands:');
  const column = 38;
  for (const usage of Object.values(COMMAND_USAGE) as CommandUsage[]) {
    usage.synopsis.forEach((form, index) => {
      const summary = index === 0 ? usage.summary : '';
      if (!summary) lines.push(`  ${form}`);
      else if (form.length < column - 1) lines.push(`  ${form.padEnd(column)}${summary}`);
      else lines.push(`  ${form}`, `  ${' '.repeat(column)}${summary}`);
    });
  }
  lines.push('', 'Configuration comes from the environment (DATABASE_URL, DATA_DIR, ...): see the README.');
  return lines.join('\n');
}
