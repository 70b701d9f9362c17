import { parseArgs } from 'node:util';
import type { TicketView } from '../../shared/api/tickets.ts';
import type { Config } from '../../server/config/config.ts';
import { getTicket, pageTickets } from '../../server/features/admin-tickets/admin-tickets.service.ts';
import { ApiError } from '../../server/http/errors.ts';
import { CliError } from '../cli-error.ts';
import { synopsisOf } from '../usage.ts';
import { withContext } from '../with-context.ts';

const USAGE = synopsisOf('tickets');
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;
const TITLE_WIDTH = 60;

/** A ticket's text is a stranger's: it must not move the cursor or recolour the operator's terminal. */
// eslint-disable-next-line no-control-regex
const printable = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');
const oneLine = (text: string) => printable(text.replace(/\s*\n\s*/g, ' '));

const shortTime = (iso: string) => iso.slice(0, 16).replace('T', ' ');

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function truncate(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join('')}…`;
}

function deliverySummary(ticket: TicketView): string {
  if (ticket.deliveries.length === 0) return 'no targets';
  return ticket.deliveries
    .map((d) =>
      d.status === 'delivered' ? `${d.target} delivered` : `${d.target} ${d.status} (${d.attempts} tried)`,
    )
    .join(', ');
}

function printTable(rows: string[][]): void {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length))) ?? [];
  for (const row of rows) {
    const cells = row.map((cell, column) =>
      column === row.length - 1 ? cell : cell + ' '.repeat((widths[column] ?? 0) - [...cell].length),
    );
    console.log(cells.join('  ').trimEnd());
  }
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_LIMIT) {
    throw new CliError(`--limit must be a whole number from 1 to ${MAX_LIMIT}, not "${raw}"`);
  }
  return Number(raw);
}

async function listCommand(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { limit: { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals.length) throw new CliError(USAGE);
  const limit = parseLimit(values.limit);
  const page = await withContext(config, (ctx) => pageTickets(ctx.db, { page: 1, per_page: limit }));
  if (page.items.length === 0) {
    console.log('no tickets yet');
    return;
  }
  printTable([
    ['ID', 'CREATED (UTC)', 'FROM', 'TITLE', 'DELIVERY'],
    ...page.items.map((ticket) => [
      String(ticket.id),
      shortTime(ticket.created_at),
      oneLine(`${ticket.name} <${ticket.email}>`),
      truncate(oneLine(ticket.title), TITLE_WIDTH),
      deliverySummary(ticket),
    ]),
  ]);
  if (page._meta.totalCount > page.items.length) {
    console.log(`(the newest ${page.items.length} of ${page._meta.totalCount}; --limit N shows more)`);
  }
}

async function showCommand(args: string[], config: Config): Promise<void> {
  const [raw, ...extra] = args;
  if (!raw || extra.length) throw new CliError(USAGE);
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw new CliError(`"${raw}" is not a ticket id`);
  let ticket: TicketView;
  try {
    ticket = await withContext(config, (ctx) => getTicket(ctx.db, Number(raw)));
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(error.message);
    throw error;
  }
  console.log(`Ticket ${ticket.id}`);
  printTable([
    ['  title:', oneLine(ticket.title)],
    ['  from:', oneLine(`${ticket.name} <${ticket.email}>`)],
    ['  user:', ticket.user_id === null ? 'none (not signed in)' : String(ticket.user_id)],
    ['  channel:', oneLine(ticket.channel)],
    ['  language:', oneLine(ticket.lang)],
    ['  created:', ticket.created_at],
  ]);
  console.log('\nDescription:');
  for (const line of printable(ticket.description).split('\n')) console.log(`  ${line}`.trimEnd());
  console.log(`\nFiles (${ticket.files.length}):`);
  if (ticket.files.length === 0) console.log('  none');
  else {
    printTable(
      ticket.files.map((file) => [
        `  ${file.id}`,
        oneLine(file.original_name),
        `${formatSize(file.file_size)} (${file.file_size} bytes)`,
      ]),
    );
  }
  console.log('\nDeliveries:');
  if (ticket.deliveries.length === 0) console.log('  none (no webhook or support email was configured)');
  else {
    printTable(
      ticket.deliveries.map((d) => [
        `  ${d.target}`,
        d.status,
        `${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}`,
        [
          d.delivered_at ? `delivered ${d.delivered_at}` : '',
          d.last_error ? `last error: ${oneLine(d.last_error)}` : '',
        ]
          .filter(Boolean)
          .join('; '),
      ]),
    );
  }
}

export async function runTickets(args: string[], config: Config): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'list') return listCommand(rest, config);
  if (action === 'show') return showCommand(rest, config);
  throw new CliError(USAGE);
}
