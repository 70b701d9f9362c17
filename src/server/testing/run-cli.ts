import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** This checkout's command, which runs its built server (the test run's global setup builds it, scripts/build.js). */
const BIN = path.resolve(import.meta.dirname, '../../../bin/signpost.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `signpost` command in a child process, as an operator would: this checkout's, or the one at `bin`
 * (an installed copy); with the Node `node` when given, else the one running. Its standard input is `input` when
 * given (a pipe, as in a script), else empty.
 */
export function signpost(
  args: string[],
  env: Record<string, string>,
  options: { bin?: string; node?: string; input?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, [options.bin ?? BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const shellQuoted = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Runs the real `signpost` command in a terminal of its own (a pseudo-terminal made by util-linux's `script`), as an
 * operator typing at it: each time it shows a question ending in ": ", the next of `answers` is typed, with Enter.
 * What the terminal showed, standard output and error together, is `stdout`.
 */
export function signpostInTerminal(
  args: string[],
  env: Record<string, string>,
  answers: string[],
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, BIN, ...args].map(shellQuoted).join(' ');
    const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'dumb', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let shown = '';
    let typed = 0;
    child.stdout.on('data', (chunk) => {
      shown += chunk;
      const questions = shown.split(/\r?\n/).filter((line) => line.endsWith(': ')).length;
      while (typed < Math.min(questions, answers.length)) child.stdin.write(`${answers[typed++]}\r`);
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: shown, stderr }));
  });
}

/**
 * Starts `signpost serve` on a free port and answers its base URL once it listens; in `cwd` when given (an operator's
 * service may start it from any folder), else in this one; the command at `bin` when given (an installed copy); with
 * the Node `node` when given, else the one running.
 */
export async function startServe(
  env: Record<string, string>,
  options: { cwd?: string; bin?: string; node?: string } = {},
) {
  const child = spawn(options.node ?? process.execPath, [options.bin ?? BIN, 'serve'], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let listening = false;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      // Once listening, the log is only kept: matching the whole of it again for each chunk made the log of a
      // server under load (a line per request) cost this process time in proportion to all of it so far.
      if (listening) return;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        listening = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    /** The server's process id (with WORKERS unset, the one process that answers). */
    pid: child.pid as number,
    output: () => output,
    stop: () =>
      new Promise<number | null>((resolve) => {
        child.removeAllListeners('exit');
        child.on('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
    /** Kills it at once, as a crash would: nothing of it runs after. */
    kill: () =>
      new Promise<NodeJS.Signals | null>((resolve) => {
        child.removeAllListeners('exit');
        child.on('exit', (_code, signal) => resolve(signal));
        child.kill('SIGKILL');
      }),
  };
}

/** The first `node` on the PATH that is not a project's own (node_modules/.bin): the machine's, as a service has it. */
export function machineNode(): string {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(folder, 'node');
    if (!folder.includes('node_modules') && fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`no node on PATH outside node_modules: ${process.env.PATH}`);
}

export const versionOf = (node: string): string =>
  execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
