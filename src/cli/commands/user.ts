import { parseArgs } from 'node:util';
import type { Config } from '../../server/config/config.ts';
import { createUser } from '../../server/accounts/accounts.service.ts';
import { clearAccountFailures } from '../../server/features/auth/sign-in-limits.ts';
import { findUserByEmail, normalEmail } from '../../server/accounts/users.repository.ts';
import { ApiError } from '../../server/http/errors.ts';
import { CliError } from '../cli-error.ts';
import { readPassword } from '../password-input.ts';
import { synopsisOf } from '../usage.ts';
import { withContext } from '../with-context.ts';

const USAGE = synopsisOf('user');

export async function runUser(args: string[], config: Config): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'unlock') return unlock(rest, config);
  if (action !== 'add') throw new CliError(USAGE);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean' },
      agent: { type: 'boolean' },
    },
  });
  const missing = (['email', 'name'] as const).filter((key) => !values[key]);
  if (missing.length) throw new CliError(`missing ${missing.map((m) => `--${m}`).join(', ')}; ${USAGE}`);
  if (values.admin && values.agent) throw new CliError(`--admin and --agent: give one; ${USAGE}`);
  const role = values.admin ? 'admin' : values.agent ? 'agent' : 'customer';
  if (values.password !== undefined) {
    console.error(
      'warning: --password leaves the password in the process list and the shell history; leave it out to be asked for it, or give it on standard input',
    );
  }
  const password = values.password ?? (await readPassword());
  try {
    const user = await withContext(config, (ctx) =>
      createUser(ctx.db, ctx.passwords, {
        email: values.email as string,
        name: values.name as string,
        password,
        role,
      }),
    );
    console.log(`created ${user.role === 'customer' ? '' : `${user.role} `}user ${user.id} <${user.email}>`);
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(error.message);
    throw error;
  }
}

/**
 * Forgets the wrong passwords counted against an account from anywhere, so its owner can sign in again at once
 * (e.g. from a new browser while strangers keep guessing). The bounds per address stay as they are.
 */
async function unlock(args: string[], config: Config): Promise<void> {
  const [raw, ...extra] = args;
  if (!raw?.trim() || extra.length) throw new CliError(USAGE);
  const email = normalEmail(raw);
  const cleared = await withContext(config, async (ctx) => {
    if (!(await findUserByEmail(ctx.db, email))) throw new CliError(`no user has the email ${email}`);
    return clearAccountFailures(ctx.db, email);
  });
  console.log(`unlocked ${email}: cleared ${cleared} failed sign-in${cleared === 1 ? '' : 's'}`);
}
