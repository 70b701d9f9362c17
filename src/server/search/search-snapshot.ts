import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import type { IndexPiece } from './search-index.ts';
import { moduleBeside } from '../lib/project-root.ts';

/**
 * A snapshot of the search index on disk, so a new or restarted server searches in seconds instead of building the
 * index anew (a minute at 100,000 articles). The file is
 *
 *   HEAD | frames | SHA-256 of HEAD and frames | TAIL
 *
 * where each frame is a 4-byte length and a V8-serialised value: first the header (what the index was made from),
 * then the index's pieces. A file that is cut short, altered, or made by other code is never used.
 */
const HEAD = Buffer.from('signpost search snapshot\n');
const TAIL = Buffer.from('\nend\n');
const DIGEST_BYTES = 32;

/** Raised by hand when what a snapshot holds changes shape in a way the sources hashed below would not show. */
const SNAPSHOT_FORMAT = 2;

/**
 * The modules that decide which terms an article is indexed under (their sources, or their built JavaScript in a built
 * server: either way, code changed since is another fingerprint), and the packages that keep them.
 */
const INDEX_SOURCES = ['analysis', 'search-index', 'term-tree', 'postings', 'search-snapshot'];
const INDEX_PACKAGES = ['minisearch', 'snowball-stemmers'];

export interface SnapshotHeader {
  /** The code and settings the index was made with (indexFingerprint): another's snapshot is not used. */
  fingerprint: string;
  /** The content revision the index was brought up to. */
  revision: unknown;
  /** Each indexed article's version stamp, to bring the index up to date with the database by the same diff. */
  versions: Map<number, string>;
  documents: number;
  writtenAt: number;
}

let fingerprint: string | null = null;

/**
 * What the index's terms depend on besides the articles: the analysis and index code and the packages under them.
 * A snapshot made by another release, or by code changed since, has another fingerprint.
 */
export function indexFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = crypto.createHash('sha256').update(`format ${SNAPSHOT_FORMAT}\n`);
  for (const source of INDEX_SOURCES) hash.update(fs.readFileSync(moduleBeside(import.meta.url, source)));
  const require = createRequire(import.meta.url);
  for (const name of INDEX_PACKAGES) hash.update(`${name}@${packageVersion(require, name)}\n`);
  fingerprint = hash.digest('hex');
  return fingerprint;
}

/** A package's version, read from its package.json beside its entry point (its exports may not list that file). */
function packageVersion(require: NodeJS.Require, name: string): string {
  for (let dir = path.dirname(require.resolve(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === name) return manifest.version ?? '';
  }
  return '';
}

/**
 * Writes the snapshot beside `file` and moves it into place in one rename, so a reader, or another server writing
 * at the same time, never sees half a file: the last complete one wins. Pieces are written with the event loop free
 * between them; when `intact` turns false (the index changed meanwhile) the file is dropped. Returns its size, or
 * null when dropped.
 */
export async function writeSnapshot(
  file: string,
  header: SnapshotHeader,
  pieces: Iterable<IndexPiece>,
  intact: () => boolean,
): Promise<number | null> {
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const handle = await fs.promises.open(temporary, 'w');
  let bytes = 0;
  let moved = false;
  try {
    const hash = crypto.createHash('sha256');
    const write = async (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
      await handle.write(chunk);
    };
    const frame = async (value: unknown) => {
      const body = v8.serialize(value);
      const length = Buffer.alloc(4);
      length.writeUInt32LE(body.length);
      await write(length);
      await write(body);
    };
    await write(HEAD);
    await frame(header);
    for (const piece of pieces) {
      if (!intact()) return null;
      await frame(piece);
    }
    if (!intact()) return null;
    const digest = hash.digest();
    await handle.write(digest);
    await handle.write(TAIL);
    bytes += digest.length + TAIL.length;
    await handle.sync();
    await handle.close();
    await fs.promises.rename(temporary, file);
    moved = true;
    return bytes;
  } finally {
    if (!moved) {
      await handle.close().catch(() => undefined);
      await fs.promises.rm(temporary, { force: true });
    }
  }
}

export type ReadSnapshot =
  | { usable: true; header: SnapshotHeader; pieces: AsyncIterable<IndexPiece>; bytes: number }
  | { usable: false; reason: string };

/**
 * The snapshot at `file` if there is one (null when not), checked whole before anything in it is believed: its
 * ends, its digest, and its fingerprint against `expected`. Its pieces are read one at a time, with the event loop
 * free in between.
 */
export async function readSnapshot(file: string, expected: string): Promise<ReadSnapshot | null> {
  let data: Buffer;
  try {
    data = await fs.promises.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { usable: false, reason: `unreadable (${(error as Error).message})` };
  }
  const end = data.length - TAIL.length - DIGEST_BYTES;
  if (
    end < HEAD.length ||
    !data.subarray(0, HEAD.length).equals(HEAD) ||
    !data.subarray(data.length - TAIL.length).equals(TAIL)
  )
    return { usable: false, reason: 'not a whole snapshot' };
  const digest = crypto.createHash('sha256').update(data.subarray(0, end)).digest();
  if (!digest.equals(data.subarray(end, end + DIGEST_BYTES)))
    return { usable: false, reason: 'its checksum does not match' };
  const frames = readFrames(data, HEAD.length, end);
  const first = frames.next();
  const header = first.done ? null : (first.value as SnapshotHeader);
  if (!header || typeof header.fingerprint !== 'string' || !(header.versions instanceof Map))
    return { usable: false, reason: 'no header' };
  if (header.fingerprint !== expected)
    return { usable: false, reason: 'made by another release or other index settings' };
  return { usable: true, header, pieces: asPieces(frames), bytes: data.length };
}

function* readFrames(data: Buffer, from: number, end: number): Generator<unknown> {
  let at = from;
  while (at < end) {
    if (at + 4 > end) throw new Error('a frame runs past the end of the snapshot');
    const length = data.readUInt32LE(at);
    at += 4;
    if (at + length > end) throw new Error('a frame runs past the end of the snapshot');
    yield v8.deserialize(data.subarray(at, at + length));
    at += length;
  }
}

async function* asPieces(frames: Iterable<unknown>): AsyncGenerator<IndexPiece> {
  for (const frame of frames) yield frame as IndexPiece;
}
