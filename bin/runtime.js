// The Node.js that Signpost runs on. The project brings its own (the npm package `node`, a dependency), so a machine
// whose Node is older (Debian's 20, say) runs Signpost all the same: npm scripts find the project's Node first on
// their PATH, and the command itself, started by an older Node (a systemd unit, a cron job running
// `signpost backup`), runs itself again on the project's Node. Only Node's own modules are loaded here: nothing that
// an older Node could fail to load comes before the check.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * The Nodes that run Signpost, as package.json's engines say: 24 from 24.15 (its node:sqlite no longer warns that it
 * is experimental), and 26 or newer. 25 was never a long-term release.
 */
export const OLDEST_NODE = [24, 15];

/** Set in the environment of the command run again, so that it never loops. */
const AGAIN = 'SIGNPOST_NODE_REEXEC';

/** Signals passed on to the command run again (Ctrl-C, a service manager stopping it, a log rotation). */
const PASSED_ON = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'];

export function supported(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major >= 26 || (major === OLDEST_NODE[0] && minor >= OLDEST_NODE[1]);
}

/** The project's own Node (node_modules/node/bin/node), or null when it is not installed. */
export function projectNode(from = import.meta.url) {
  try {
    const manifest = createRequire(from).resolve('node/package.json');
    const node = path.join(path.dirname(manifest), 'bin', 'node');
    // Installed without its install script (`--ignore-scripts`), the package has no binary.
    return fs.existsSync(node) ? node : null;
  } catch {
    return null;
  }
}

/**
 * Returns at once on a supported Node. On an older one, runs the script again on the project's Node with the same
 * arguments, input and output, and never returns: this process ends as the other does, with its exit code (or by
 * its signal).
 */
export async function runOnSupportedNode(script = process.argv[1]) {
  if (supported()) {
    if (process.env[AGAIN]) followTheFirst();
    return;
  }
  const node = process.env[AGAIN] ? null : projectNode();
  if (!node) {
    process.stderr.write(
      `Signpost needs Node.js ${OLDEST_NODE.join('.')} or newer (24 LTS, or 26); this is ${process.version}. ` +
        'Run `npm install` in its folder (it brings Node 24), or install Node.js 24.\n',
    );
    process.exit(1);
  }
  const child = spawn(node, [...process.execArgv, script, ...process.argv.slice(2)], {
    // A channel besides the three streams, which closes when this process ends, however it ends: see followTheFirst.
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [AGAIN]: '1' },
  });
  for (const signal of PASSED_ON) process.on(signal, () => child.kill(signal));
  await new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`Could not start ${node}: ${error.message}\n`);
      process.exitCode = 1;
      resolve(undefined);
    });
    child.on('exit', (code, signal) => {
      if (signal) {
        // End the way the other process ended: by the same signal, our handlers for it taken away first.
        process.removeAllListeners(signal);
        process.kill(process.pid, signal);
      }
      process.exitCode = code ?? 128 + (os.constants.signals[signal] ?? 0);
      resolve(undefined);
    });
  });
  // Whatever the command would have done after this, the other process did.
  process.exit();
}

/**
 * In the process run again: it stops (as on SIGTERM, finishing what it is doing) when the first one ends without
 * passing a signal on, killed by SIGKILL say, so no server is left holding its port with no one to stop it. The marker
 * goes from the environment, so that processes this one starts (cluster workers, commands) are not taken for one
 * run again.
 */
function followTheFirst() {
  delete process.env[AGAIN];
  if (!process.channel) return;
  // The channel alone must not keep the process alive once its work is done.
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
