import type { Config } from '../config/config.ts';
import type { Executor } from '../db/database.ts';
import { giveBack, RateLimitError, takeAllowance } from './rate-limit.ts';

/** Counters count kibibytes: a PostgreSQL integer holds 2 TiB of them, where bytes would stop at 2 GiB. */
export const KIB = 1024;
export const toKib = (bytes: number) => Math.ceil(bytes / KIB);
/** Each uploader's kibibytes this hour (UPLOAD_MB_PER_HOUR). */
export const UPLOAD_BYTES_BUCKET = 'upload-kib';
/** Each uploader's files this hour (UPLOADS_PER_HOUR): the upload call's own counter. */
export const UPLOAD_CALLS_BUCKET = 'upload';

/** Why a file was refused by the hourly upload limits: too many files, or too many bytes. */
export type UploadRefusal = 'files' | 'bytes';

/**
 * Takes one file of `bytes` from `uploader`'s hourly allowance of files and bytes, both or neither; answers null, or
 * which limit refused it. Each take is one conditional update, so files counted at once by several servers cannot
 * all pass.
 */
export async function takeUploadOfFile(
  db: Executor,
  limits: Pick<Config['tickets'], 'uploadsPerHour' | 'uploadBytesPerHour'>,
  uploader: string,
  bytes: number,
  now: number,
): Promise<UploadRefusal | null> {
  try {
    await takeAllowance(db, UPLOAD_CALLS_BUCKET, uploader, limits.uploadsPerHour, 1, now);
  } catch (error) {
    if (error instanceof RateLimitError) return 'files';
    throw error;
  }
  try {
    await takeAllowance(
      db,
      UPLOAD_BYTES_BUCKET,
      uploader,
      Math.floor(limits.uploadBytesPerHour / KIB),
      toKib(bytes),
      now,
    );
  } catch (error) {
    await giveBack(db, UPLOAD_CALLS_BUCKET, uploader, 1, now);
    if (error instanceof RateLimitError) return 'bytes';
    throw error;
  }
  return null;
}

/** Gives back what takeUploadOfFile took for these files' sizes, with the `now` they were taken at. */
export async function giveBackUploadsOfFiles(
  db: Executor,
  uploader: string,
  sizes: readonly number[],
  now: number,
): Promise<void> {
  await giveBack(db, UPLOAD_CALLS_BUCKET, uploader, sizes.length, now);
  await giveBack(
    db,
    UPLOAD_BYTES_BUCKET,
    uploader,
    sizes.reduce((sum, bytes) => sum + toKib(bytes), 0),
    now,
  );
}
