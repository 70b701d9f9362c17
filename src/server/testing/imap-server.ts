import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from './free-port.ts';

const DOVECOT = '/usr/sbin/dovecot';

export interface ImapServer {
  port: number;
  user: string;
  password: string;
  /** IMAP_URL for this mailbox (plain IMAP on loopback), optionally with a folder. */
  url(mailbox?: string): string;
  /** Puts a raw mail into the mailbox as a mail server would deliver it: unread, unless flags say otherwise. */
  append(raw: string | Buffer, flags?: string[]): Promise<number>;
  /** The flags of every mail in the mailbox, by uid. */
  flags(): Promise<Map<number, Set<string>>>;
  /** Empties the mailbox. */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** The uid and gid of a system account (root may not own a mailbox in Dovecot), from /etc/passwd. */
function account(name: string): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) throw new Error(`no ${name} account: is dovecot-imapd installed?`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function greeted(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('* OK'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Who owns the mail and runs the login processes: Dovecot's own accounts as root, else the current user. */
interface Owner {
  uid: number;
  gid: number;
  asRoot: boolean;
  username: string;
}

/** The throw-away configuration: its own port on loopback, one account from `passwd`, maildir, no TLS. */
function dovecotConfig(dir: string, mail: string, port: number, owner: Owner): string {
  const { asRoot } = owner;
  const me = { username: owner.username };
  return `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:${mail}/%u
first_valid_uid = ${owner.uid}
default_internal_user = ${asRoot ? 'dovecot' : me.username}
default_internal_group = ${asRoot ? 'dovecot' : me.username}
default_login_user = ${asRoot ? 'dovenull' : me.username}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${owner.uid} gid=${owner.gid} home=${mail}/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
}

/** Dovecot started on this configuration, once it greets on its port (or an error with its log). */
async function startDovecot(dir: string, port: number) {
  const dovecot: ChildProcess = spawn(DOVECOT, ['-F', '-c', path.join(dir, 'dovecot.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  dovecot.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => dovecot.once('exit', () => resolve()));
  const log = () => {
    try {
      return fs.readFileSync(path.join(dir, 'dovecot.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + 15_000;
  while (!(await greeted(port))) {
    if (dovecot.exitCode !== null || Date.now() > deadline) {
      dovecot.kill('SIGKILL');
      throw new Error(`dovecot did not start: ${stderr}\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { dovecot, exited };
}

/** One signed-in IMAP session for `work`, logged out after. */
async function session<T>(
  port: number,
  auth: { user: string; pass: string },
  work: (client: ImapFlow) => Promise<T>,
): Promise<T> {
  const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth, logger: false });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.logout();
  }
}

/**
 * Debian's Dovecot with a throw-away configuration: its own port on loopback, one account with a plain password,
 * maildir in a temporary folder, no TLS. As root, Dovecot's own accounts run it (it refuses root for logins and
 * mailboxes); otherwise the current user does.
 */
export async function startImapServer(): Promise<ImapServer> {
  if (!fs.existsSync(DOVECOT)) throw new Error(`${DOVECOT} is missing: apt-get install dovecot-imapd`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-imap-'));
  // Login processes run as another account and reach the sockets below.
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const user = 'support@example.com';
  const password = 'mailbox secret';
  const asRoot = process.getuid?.() === 0;
  const me = os.userInfo();
  const owner = asRoot ? account('dovecot') : { uid: me.uid, gid: me.gid };
  const ownedBy: Owner = { ...owner, asRoot, username: me.username };
  const mail = path.join(dir, 'mail');
  fs.mkdirSync(mail);
  fs.chownSync(mail, owner.uid, owner.gid);
  fs.writeFileSync(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}\n`);
  fs.writeFileSync(path.join(dir, 'dovecot.conf'), dovecotConfig(dir, mail, port, ownedBy));
  const { dovecot, exited } = await startDovecot(dir, port);
  const open = <T>(work: (client: ImapFlow) => Promise<T>) => session(port, { user, pass: password }, work);

  return {
    port,
    user,
    password,
    url: (mailbox = '') =>
      `imap://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${mailbox}`,
    append: (raw, flags = []) =>
      open(async (client) => {
        const appended = await client.append('INBOX', raw, flags);
        if (!appended) throw new Error('the mailbox refused the mail');
        return Number(appended.uid);
      }),
    flags: () =>
      open(async (client) => {
        const lock = await client.getMailboxLock('INBOX');
        try {
          const result = new Map<number, Set<string>>();
          if (!client.mailbox || !client.mailbox.exists) return result;
          for await (const message of client.fetch('1:*', { uid: true, flags: true }))
            result.set(message.uid, message.flags ?? new Set());
          return result;
        } finally {
          lock.release();
        }
      }),
    clear: () =>
      open(async (client) => {
        const lock = await client.getMailboxLock('INBOX');
        try {
          if (client.mailbox && client.mailbox.exists) await client.messageDelete('1:*');
        } finally {
          lock.release();
        }
      }),
    async close() {
      if (dovecot.exitCode === null) {
        dovecot.kill('SIGTERM');
        const timer = setTimeout(() => dovecot.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
