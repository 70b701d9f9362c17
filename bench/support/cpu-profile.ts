/**
 * The functions a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) spent the most time in themselves, with
 * their share of the time the process was busy, and the busiest files:
 *
 *   npx tsx bench/support/cpu-profile.ts FILE.cpuprofile [TOP] [LAST_SECONDS]
 *
 * LAST_SECONDS keeps the profile's last seconds alone: the load, without the start-up that came before it.
 * To profile the server under load: BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" for the benches that
 * start it through startSignpost, or `node --cpu-prof bin/signpost.js serve` under wrk, stopped with SIGTERM (the
 * profile is written as the process exits).
 */
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Time spent outside JavaScript and native code worth naming: waiting, or the collector's own accounting. */
const NOT_BUSY = new Set(['(idle)', '(program)']);

export function summarise(profile: Profile, top: number, lastSeconds = Infinity): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map<string, number>();
  const fileTime = new Map<string, number>();
  const at = profile.timeDeltas.reduce<number[]>(
    (times, delta) => [...times, (times.at(-1) ?? 0) + delta],
    [],
  );
  const from = (at.at(-1) ?? 0) - lastSeconds * 1e6;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const micros = profile.timeDeltas[i] ?? 0;
    if (!frame || NOT_BUSY.has(frame.functionName) || (at[i] ?? 0) < from) return;
    busy += micros;
    const file = frame.url ? shortFile(frame.url) : '(native)';
    const name = `${frame.functionName || '(anonymous)'} ${file}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    selfTime.set(name, (selfTime.get(name) ?? 0) + micros);
    fileTime.set(file, (fileTime.get(file) ?? 0) + micros);
  });
  const table = (times: Map<string, number>) =>
    [...times]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => `${((micros / busy) * 100).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  return [
    `busy ${(busy / 1e6).toFixed(2)} s; self time by function:`,
    table(selfTime),
    'by file:',
    table(fileTime),
  ].join('\n');
}

/** A file as a reader finds it: from the package (node_modules/x/...) or the repository (src/...). */
function shortFile(url: string): string {
  const file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('node_modules/');
  if (modules >= 0) return file.slice(modules + 'node_modules/'.length);
  const root = path.resolve(import.meta.dirname, '../..');
  return file.startsWith(root) ? path.relative(root, file) : file;
}

if (process.argv[1] === import.meta.filename) {
  const [file, top = '25', last] = process.argv.slice(2);
  if (!file)
    throw new Error('usage: npx tsx bench/support/cpu-profile.ts FILE.cpuprofile [TOP] [LAST_SECONDS]');
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  console.log(summarise(profile, Number(top), last === undefined ? Infinity : Number(last)));
}
