import { ISSUE_FILES_MAX, UPLOAD_FILE_MAX_BYTES } from '../../../shared/constants.ts';
import type { AppContext } from '../../context.ts';
import { takeTransactionLock, type Executor, type Tx } from '../../db/database.ts';
import { ApiError } from '../../http/errors.ts';
import type { ByteAllowance } from '../../files/store-uploads.ts';
import { giveBack, RateLimitError, recentUse, takeAllowance } from '../../rate-limit/rate-limit.ts';
import { KIB, toKib, UPLOAD_BYTES_BUCKET } from '../../rate-limit/upload-budget.ts';
import { UPLOAD_LIFETIME_MS } from './stale-uploads.ts';
import { untakenUploadBytes } from '../../tickets/index.ts';

/** The most one request can store (ten files of 25 MB): a longer declared body takes no more than this. */
const REQUEST_MAX_BYTES = ISSUE_FILES_MAX * UPLOAD_FILE_MAX_BYTES;
/** Taken at a time while a body without a declared length streams in. */
const STEP_KIB = 1024;

/** Each client address's uploaded kibibytes this hour (emailed files count in it too, by their sender). */
const BUDGET = UPLOAD_BYTES_BUCKET;
/** Kibibytes being uploaded right now, by everyone: not yet file rows, already on their way to storage. */
const IN_FLIGHT = 'upload-kib-in-flight';
const EVERYONE = '*';
/** How far back uploads may still be waiting: twice the day after which they are deleted. */
const PENDING_WINDOW_MS = 2 * UPLOAD_LIFETIME_MS;
/** The PostgreSQL advisory lock that makes reserving room among pending uploads one at a time. */
const PENDING_LOCK = 0x5349_474e;

export class UploadBudgetError extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    field: string,
    megabytes: number,
  ) {
    super(
      429,
      'rate_limited',
      `Uploads from one address are limited to ${megabytes} MB an hour; try again in ` +
        `${Math.ceil(retryAfterSeconds / 60)} minutes`,
      [{ field, message: `is more than the ${megabytes} MB an hour one address may upload` }],
    );
  }
}

const pendingFull = (field: string) =>
  new ApiError(
    507,
    'insufficient_storage',
    'Too many uploads are waiting to be sent with a request; try again later',
    [{ field, message: 'cannot be kept now: too many uploads are waiting to be sent' }],
  );

/**
 * Reserving room and turning reserved room into file rows take turns: otherwise a reserver could count an upload
 * neither among the file rows (not yet committed) nor among the reservations (already given back). SQLite's
 * transactions take its one write lock from the start, which serialises them already.
 */
async function lockPending(trx: Tx, dialect: AppContext['database']['dialect']) {
  await takeTransactionLock(trx, dialect, PENDING_LOCK);
}

/**
 * Kibibytes of the uploads no request has taken yet. Those older than a day are deleted every hour
 * (stale-uploads.ts), so two days' worth is all of them, and the index on (kind, created_at) reads only those,
 * however many uploads past requests hold.
 */
async function pendingKib(db: Executor, now: number): Promise<number> {
  return toKib(await untakenUploadBytes(db, now - PENDING_WINDOW_MS));
}

/**
 * What one anonymous upload request may store, taken before its bytes are: from the client address's hourly byte
 * budget (429 past it) and from the room left among uploads nobody has sent yet, for everyone together (507 past
 * it). It takes the declared Content-Length at the start (an upper bound of the files' bytes), more as a body
 * without one streams in, and gives back what was not stored: the room in flight when the file rows are written,
 * the budget for whatever bytes did not end up in storage.
 */
export class UploadAllowance implements ByteAllowance {
  readonly #ctx: AppContext;
  readonly #client: string;
  readonly #field: string;
  /** Every count is made in the hour the request began, so that its give-backs find the counts they took from. */
  readonly #now = Date.now();
  #takenKib = 0;
  #storedBytes = 0;
  #settled = false;

  constructor(ctx: AppContext, client: string, field: string) {
    this.#ctx = ctx;
    this.#client = client;
    this.#field = field;
  }

  /** Takes the request's declared length up front, if it has one. */
  async coverDeclared(contentLength: string | undefined): Promise<void> {
    const declared = Number(contentLength);
    if (Number.isSafeInteger(declared) && declared > 0) {
      await this.#take(toKib(Math.min(declared, REQUEST_MAX_BYTES)));
    }
  }

  /** Takes more once the bytes streamed in pass what was taken: a step at a time, or just what they need. */
  async cover(bytes: number): Promise<void> {
    const needed = toKib(bytes) - this.#takenKib;
    if (needed <= 0) return;
    if (needed >= STEP_KIB) return this.#take(needed);
    try {
      await this.#take(STEP_KIB);
    } catch (error) {
      // A step may not fit where the bytes themselves still do.
      if (!(error instanceof ApiError)) throw error;
      await this.#take(needed);
    }
  }

  stored(bytes: number): void {
    this.#storedBytes += bytes;
  }

  /** Writes the request's file rows with `write`, in the transaction that turns the room it took into them. */
  async commit<T>(write: (trx: Tx) => Promise<T>): Promise<T> {
    const result = await this.#ctx.db.transaction().execute(async (trx) => {
      await lockPending(trx, this.#ctx.database.dialect);
      const written = await write(trx);
      await this.#giveBackAll(trx);
      return written;
    });
    this.#settled = true;
    return result;
  }

  /** For a request refused or failed before its rows were written; nothing to do after `commit`. */
  async release(): Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    await this.#giveBackAll(this.#ctx.db);
  }

  async #take(kib: number): Promise<void> {
    const { db, config } = this.#ctx;
    const budgetKib = Math.floor(config.tickets.uploadBytesPerHour / KIB);
    try {
      await takeAllowance(db, BUDGET, this.#client, budgetKib, kib, this.#now);
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      throw new UploadBudgetError(
        error.retryAfterSeconds,
        this.#field,
        config.tickets.uploadBytesPerHour / (KIB * KIB),
      );
    }
    try {
      await this.#reservePending(kib);
    } catch (error) {
      await giveBack(db, BUDGET, this.#client, kib, this.#now);
      throw error;
    }
    this.#takenKib += kib;
  }

  async #reservePending(kib: number): Promise<void> {
    const capKib = Math.floor(this.#ctx.config.tickets.pendingUploadBytesMax / KIB);
    await this.#ctx.db.transaction().execute(async (trx) => {
      await lockPending(trx, this.#ctx.database.dialect);
      // In flight counts this hour's reservations and the last hour's: one made just before the hour turned is
      // still under way, and one never given back (a process killed mid-upload) counts for two hours at most.
      const used =
        (await pendingKib(trx, Date.now())) + (await recentUse(trx, IN_FLIGHT, EVERYONE, this.#now));
      if (used + kib > capKib) throw pendingFull(this.#field);
      await takeAllowance(trx, IN_FLIGHT, EVERYONE, capKib, kib, this.#now);
    });
  }

  async #giveBackAll(db: Executor): Promise<void> {
    await giveBack(db, IN_FLIGHT, EVERYONE, this.#takenKib, this.#now);
    await giveBack(db, BUDGET, this.#client, this.#takenKib - toKib(this.#storedBytes), this.#now);
  }
}
