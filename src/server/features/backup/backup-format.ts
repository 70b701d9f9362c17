import fs from 'node:fs';
import zlib from 'node:zlib';

/**
 * A backup is one gzip file of records, each a line of JSON, except that a blob's line is followed by exactly its
 * bytes (and a newline):
 *
 *   {"format":"signpost-backup","version":1,"schema":"0026-sender-access","release":"0.2.0","created_at":"...",
 *    "source":"sqlite","tables":{...},"blobs":{...}}
 *   {"blob":"<sha256>","size":1234}\n<1234 bytes>\n        every stored file, once per content hash
 *   {"table":"sections","row":{...}}                       every row of every kept table, tables in TABLE_PLAN order
 *   {"end":true,"rows":321,"blobs":12}                     nothing may follow
 *
 * Everything streams: rows one line each, blobs in chunks, so neither side holds the help centre in memory.
 * `zcat FILE | head -1` shows what a file holds.
 */
export const BACKUP_FORMAT = 'signpost-backup';
export const BACKUP_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** The newest migration of the database it was taken from: a restore migrates an older one forward first. */
  schema: string;
  /** The signpost release that wrote it; files written before backups recorded it have none. */
  release?: string;
  /** Written by a restore that migrated an older backup forward: what the file it was made from said. */
  upgraded_from?: { schema: string; release?: string };
  created_at: string;
  /** The dialect it came from (informative: a backup restores into either). */
  source: string;
  tables: Record<string, number>;
  blobs: { count: number; bytes: number };
}

export type Row = Record<string, string | number | null>;

export type BackupRecord =
  | { kind: 'header'; header: BackupHeader }
  | { kind: 'blob'; key: string; size: number; bytes: AsyncIterable<Buffer> }
  | { kind: 'row'; table: string; row: Row }
  | { kind: 'end'; rows: number; blobs: number };

/** A backup that cannot be restored: damaged, cut short, of another schema, or not a backup at all. */
export class BackupError extends Error {}

/** Longer than any row we store (bodies are limited to 1 MB by the API); a longer line means a broken file. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
const NEWLINE = 0x0a;

export const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** The rows a header's counts add up to. */
export const totalRows = (tables: Record<string, number>) =>
  Object.values(tables).reduce((sum, n) => sum + n, 0);

/** Reads lines and exact byte counts from a stream of chunks. */
class ByteReader {
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  constructor(private readonly chunks: AsyncIterator<Buffer>) {}

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.chunks.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, next.value]) : next.value;
    return true;
  }

  /** The next line without its newline; null at the very end of the stream. */
  async readLine(): Promise<string | null> {
    let searchFrom = 0;
    for (;;) {
      const at = this.buffer.indexOf(NEWLINE, searchFrom);
      if (at >= 0) {
        const text = this.buffer.subarray(0, at).toString('utf8');
        this.buffer = this.buffer.subarray(at + 1);
        return text;
      }
      searchFrom = this.buffer.length;
      if (this.buffer.length > MAX_LINE_BYTES)
        throw new BackupError('a record is longer than any row can be');
      if (!(await this.fill())) {
        if (this.buffer.length === 0) return null;
        throw new BackupError('the file ends in the middle of a record');
      }
    }
  }

  /** Exactly `size` bytes, in chunks as they come. */
  async *readBytes(size: number): AsyncGenerator<Buffer> {
    let left = size;
    while (left > 0) {
      if (this.buffer.length === 0 && !(await this.fill())) {
        throw new BackupError('the file ends in the middle of a stored file');
      }
      const take = Math.min(left, this.buffer.length);
      yield this.buffer.subarray(0, take);
      this.buffer = this.buffer.subarray(take);
      left -= take;
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const STORAGE_KEY = /^[0-9a-f]{64}$/;

function parseRecord(
  text: string,
  index: number,
): Exclude<BackupRecord, { kind: 'blob' }> | { kind: 'blob'; key: string; size: number } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupError(`record ${index} is not valid JSON`);
  }
  if (!isObject(value)) throw new BackupError(`record ${index} is not an object`);
  if (index === 1) {
    if (value.format !== BACKUP_FORMAT) throw new BackupError('this is not a signpost backup');
    if (value.version !== BACKUP_VERSION) {
      throw new BackupError(
        `backup format version ${String(value.version)} is not supported (this signpost reads ${BACKUP_VERSION})`,
      );
    }
    if (
      typeof value.schema !== 'string' ||
      !isObject(value.tables) ||
      !isObject(value.blobs) ||
      (value.release !== undefined && typeof value.release !== 'string')
    ) {
      throw new BackupError('the backup header is incomplete');
    }
    return { kind: 'header', header: value as unknown as BackupHeader };
  }
  if (typeof value.table === 'string' && isObject(value.row)) {
    for (const [column, cell] of Object.entries(value.row)) {
      if (cell !== null && typeof cell !== 'string' && typeof cell !== 'number') {
        throw new BackupError(`record ${index}: ${value.table}.${column} holds an unexpected value`);
      }
    }
    return { kind: 'row', table: value.table, row: value.row as Row };
  }
  if (typeof value.blob === 'string') {
    if (!STORAGE_KEY.test(value.blob) || !Number.isSafeInteger(value.size) || (value.size as number) < 0) {
      throw new BackupError(`record ${index}: a stored file is described wrongly`);
    }
    return { kind: 'blob', key: value.blob, size: value.size as number };
  }
  if (value.end === true && Number.isSafeInteger(value.rows) && Number.isSafeInteger(value.blobs)) {
    return { kind: 'end', rows: value.rows as number, blobs: value.blobs as number };
  }
  throw new BackupError(`record ${index} is of no known kind`);
}

/** A broken gzip stream's error, in words an operator can act on; any other error as it is. */
function translate(error: unknown): unknown {
  if (error instanceof BackupError || !(error instanceof Error)) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(error.message)) {
    return new BackupError('the file is cut short (an incomplete copy, or a full disk when it was written?)');
  }
  if (/incorrect header check|not in gzip format/i.test(error.message)) {
    return new BackupError('this is not a signpost backup (not a gzip file)');
  }
  if (code.startsWith('Z_')) return new BackupError(`the file is damaged (${error.message})`);
  return error;
}

/**
 * The records of a backup file, in order. A blob's bytes must be consumed before the next record is asked for.
 * Structural damage (gzip, JSON, truncation, a missing end) throws BackupError; meaning is checked by the caller.
 */
export async function* readRecords(file: string): AsyncGenerator<BackupRecord> {
  const gunzip = zlib.createGunzip();
  const source = fs.createReadStream(file);
  source.once('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  const reader = new ByteReader(gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  let index = 0;
  let ended = false;
  try {
    for (;;) {
      const text = await reader.readLine();
      if (text === null) break;
      index++;
      if (ended) throw new BackupError('there is data after the end record');
      const record = parseRecord(text, index);
      if (index === 1 && record.kind !== 'header') throw new BackupError('this is not a signpost backup');
      if (record.kind === 'blob') {
        let consumed = false;
        const bytes = async function* () {
          try {
            yield* reader.readBytes(record.size);
          } catch (error) {
            throw translate(error);
          }
          consumed = true;
        };
        yield { ...record, bytes: bytes() };
        if (!consumed) throw new Error(`internal: the bytes of blob ${record.key} were not read`);
        const after = await reader.readLine();
        if (after !== '') throw new BackupError(`stored file ${record.key} is followed by unexpected data`);
        continue;
      }
      if (record.kind === 'end') ended = true;
      yield record;
    }
    if (index === 0) throw new BackupError('the file is empty');
    if (!ended) throw new BackupError('the file is cut short (no end record)');
  } catch (error) {
    throw translate(error);
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}

/** A backup's header alone: the first record, read without going through the rest of the file. */
export async function readHeader(file: string): Promise<BackupHeader> {
  const records = readRecords(file);
  try {
    const first = await records.next();
    if (first.done || first.value.kind !== 'header') throw new BackupError('this is not a signpost backup');
    return first.value.header;
  } finally {
    await records.return(undefined);
  }
}
