import { Writable } from 'node:stream';

/** Every JSON line a logger writes (buildApp's `logStream`), parsed, and the raw text. */
export function captureLogs() {
  const lines: Record<string, unknown>[] = [];
  let raw = '';
  let pending = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw += chunk.toString();
      pending += chunk.toString();
      const complete = pending.split('\n');
      pending = complete.pop() ?? '';
      for (const line of complete.filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { stream, lines, raw: () => raw };
}
