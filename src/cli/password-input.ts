import { CliError } from './cli-error.ts';

/** Longer than any password a person types or a script pipes; a longer first line is a wrong file, not a password. */
const MAX_LINE = 4_096;

/**
 * A password without putting it in the process list or the shell history: asked for twice, unseen, in a terminal;
 * otherwise the first line of standard input (`printf '%s\n' "$PASSWORD" | signpost user add ...`). Prompts go to
 * standard error, so standard output keeps only the command's result.
 */
export async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    const password = await askUnseen('Password: ');
    if (!password) throw new CliError('no password given; nothing was changed');
    const again = await askUnseen('The same password again: ');
    if (password !== again) throw new CliError('the two passwords differ; nothing was changed');
    return password;
  }
  // Someone at a terminal whose input is not one (a pipe, `ssh host signpost ...` without -t) is told what is read.
  if (process.stderr.isTTY) console.error('reading the password from the first line of standard input');
  return firstLineOfInput();
}

async function firstLineOfInput(): Promise<string> {
  let text = '';
  // Decoded as a stream: a character split between two chunks stays one character.
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) {
    text += String(chunk);
    const end = text.indexOf('\n');
    if (end >= 0) {
      text = text.slice(0, end);
      break;
    }
    if (text.length > MAX_LINE) break;
  }
  process.stdin.destroy();
  text = text.replace(/\r$/, '');
  if (text.length > MAX_LINE)
    throw new CliError('the first line of standard input is too long to be a password');
  if (!text) {
    throw new CliError(
      'no password: run in a terminal to be asked for it, give it as the first line of standard input, or use --password P',
    );
  }
  return text;
}

/**
 * One line typed in a terminal, not echoed. Backspace works; Ctrl-C, and Ctrl-D on an empty line, give up; the keys
 * that send escape sequences (arrows, Home, F1...) add nothing; a terminal that closes gives up.
 */
function askUnseen(question: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    // Within an escape sequence: ESC, then `[` or `O` and parameters up to a final character from @ to ~.
    let escape: 'none' | 'start' | 'body' = 'none';
    const onEnd = () => finish(new CliError('the terminal closed; nothing was changed'));
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.off('end', onEnd);
      // A terminal that closed has no mode left to restore.
      if (!input.destroyed) input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed.join(''));
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (escape === 'start') {
          escape = char === '[' || char === 'O' ? 'body' : 'none';
          continue;
        }
        if (escape === 'body') {
          if (char >= '@' && char <= '~') escape = 'none';
          continue;
        }
        if (char === '\u001b') {
          escape = 'start';
          continue;
        }
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new CliError('cancelled; nothing was changed'));
        if (char === '\u0004') {
          return typed.length ? finish() : finish(new CliError('no password given; nothing was changed'));
        }
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char >= ' ') typed.push(char);
      }
    };
    // Echo goes off before the question is shown: nothing typed after it can appear on the screen.
    input.setEncoding('utf8');
    input.setRawMode(true);
    input.on('data', onData);
    input.once('end', onEnd);
    input.resume();
    process.stderr.write(question);
  });
}
