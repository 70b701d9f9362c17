import { BackupError, totalRows, type BackupHeader, type BackupRecord, type Row } from './backup-format.ts';

/**
 * What a restore does with a backup of this schema: restore it as it is (this signpost's newest), or migrate it
 * forward first (an older schema this signpost has). Refuses the rest before anything is changed: a newer schema
 * (the release to install is named when the file says which wrote it), or one no release has.
 */
export function schemaStep(
  header: BackupHeader,
  known: readonly string[],
  release: string,
): 'restore' | 'upgrade' {
  const latest = known.at(-1) ?? '';
  if (header.schema === latest) return 'restore';
  if (known.includes(header.schema)) return 'upgrade';
  const ours = `this signpost ${release} (schema ${latest})`;
  if (header.schema > latest) {
    throw new BackupError(
      header.release
        ? `the backup was made by signpost ${header.release} (database schema ${header.schema}), newer than ${ours}: upgrade signpost to ${header.release} or later, then restore`
        : `the backup is of database schema ${header.schema}, newer than ${ours}: upgrade signpost to a release of that schema or later, then restore`,
    );
  }
  throw new BackupError(
    `the backup is of database schema ${header.schema}, which no signpost release has (${ours} knows ${known[0]} to ${latest}): it was not written by signpost, or was changed since`,
  );
}

/**
 * Checks a backup's records in the order they are read: the stored files before the rows, rows only of known tables
 * and columns (in `order`, when given), and every count against the header and the end record.
 */
export class BackupChecker {
  private header: BackupHeader | undefined;
  private readonly rows = new Map<string, number>();
  private blobCount = 0;
  private blobBytes = 0;
  private tableIndex = -1;
  private sawRows = false;

  /**
   * `columns`: the tables the rows may be of and their columns; `of`: whose they are, for the message ("this
   * database"); `order`: the order the tables' rows must come in, if any.
   */
  constructor(
    private readonly columns: Map<string, Set<string>>,
    private readonly of: string,
    private readonly order?: readonly string[],
  ) {}

  onHeader(header: BackupHeader): void {
    this.header = header;
  }

  /** A stored file and its size as read (its hash is the reader's to check). */
  onBlob(size: number): void {
    if (this.sawRows) throw new BackupError('a stored file comes after the rows');
    this.blobCount++;
    this.blobBytes += size;
  }

  onRow(table: string, row: Row): void {
    this.sawRows = true;
    const known = this.columns.get(table);
    if (!known) throw new BackupError(`the backup holds rows of an unknown table "${table}"`);
    if (this.order) {
      const index = this.order.indexOf(table);
      if (index < 0) throw new BackupError(`the backup holds rows of an unknown table "${table}"`);
      if (index < this.tableIndex) throw new BackupError(`the rows of ${table} are out of order`);
      this.tableIndex = index;
    }
    const unknown = Object.keys(row).filter((column) => !known.has(column));
    if (unknown.length) {
      throw new BackupError(`${table} rows have columns ${this.of} does not: ${unknown.join(', ')}`);
    }
    this.rows.set(table, (this.rows.get(table) ?? 0) + 1);
  }

  onEnd(record: Extract<BackupRecord, { kind: 'end' }>): void {
    const expected = this.header?.tables ?? {};
    for (const table of new Set([...Object.keys(expected), ...this.rows.keys()])) {
      if ((expected[table] ?? 0) !== (this.rows.get(table) ?? 0)) {
        throw new BackupError(
          `the file holds ${this.rows.get(table) ?? 0} ${table} rows, its header says ${expected[table] ?? 0}`,
        );
      }
    }
    if (record.rows !== totalRows(expected) || record.blobs !== this.blobCount) {
      throw new BackupError('the end record does not match the content');
    }
    if (this.blobCount !== this.header?.blobs.count || this.blobBytes !== this.header.blobs.bytes) {
      throw new BackupError(
        `the file holds ${this.blobCount} stored files (${this.blobBytes} bytes), its header says ${this.header?.blobs.count} (${this.header?.blobs.bytes} bytes)`,
      );
    }
  }

  /** The header, once the whole file was read. */
  result(): BackupHeader {
    if (!this.header) throw new BackupError('this is not a signpost backup');
    return this.header;
  }
}
