import type { MultipartFile } from '@fastify/multipart';
import { UPLOAD_FILE_MAX_BYTES } from '../../shared/constants.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { TooLargeError } from '../storage/file-storage.ts';
import { cleanFileName } from '../lib/clean-text.ts';
import { contentTypeFor } from '../lib/content-type.ts';

/** The names clients give file parts; errors name the one the caller's own client sends. */
const FIELD_NAMES = new Set(['file[]', 'file', 'files[]', 'files']);

export interface StoredUpload {
  name: string;
  key: string;
  size: number;
}

/** A body the multipart parser could not read (no or wrong boundary, cut short): the client's fault, a 400. */
const malformed = (field: string, cause: unknown) =>
  new ApiError(
    400,
    'invalid_request',
    `The upload is not a readable multipart/form-data body (${(cause as Error)?.message ?? 'unreadable'})`,
    [{ field, message: 'is not a valid multipart/form-data body' }],
  );

/**
 * What the parser throws is either one of its limits, which carry their own 4xx status (too many files or parts,
 * answered as they are), or a body it cannot read.
 */
function asClientError(error: unknown, field: string): unknown {
  if (error instanceof ApiError) return error;
  const status = (error as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return error;
  return malformed(field, error);
}

/**
 * The items of what the multipart parser hands out (parts, a part's bytes), with its failures (a body that ends
 * inside a part, a boundary never found) turned into client errors. Stopping early stops the source too.
 */
async function* withClientErrors<T>(source: AsyncIterable<T>, field: string): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw asClientError(error, field);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}

/**
 * What a caller lets a request store: asked to cover the request's bytes so far before each chunk is stored (it
 * throws to refuse them), and told of each file once stored.
 */
export interface ByteAllowance {
  cover(bytes: number): Promise<void>;
  stored(bytes: number): void;
}

/**
 * Streams a multipart request's files into storage, each refused past 25 MB (413) and the request refused when a
 * part is not a file field, no file came or the body is not readable multipart (400); errors name `field`, the
 * field the caller's clients send. A refused request leaves no file row (the caller writes them after); bytes it
 * wrote go with the sweep of unused bytes.
 */
export async function storeUploadedParts(
  ctx: AppContext,
  parts: AsyncIterable<MultipartFile>,
  field: string,
  allowance?: ByteAllowance,
): Promise<StoredUpload[]> {
  const stored: StoredUpload[] = [];
  let received = 0;
  async function* bytesOf(part: MultipartFile) {
    for await (const chunk of withClientErrors(part.file, field)) {
      received += chunk.length;
      await allowance?.cover(received);
      yield chunk as Buffer;
    }
  }
  for await (const part of withClientErrors(parts, field)) {
    if (!FIELD_NAMES.has(part.fieldname)) {
      part.file.resume();
      throw new ApiError(
        400,
        'invalid_request',
        `Unexpected field ${part.fieldname}; send files as ${field}`,
        [{ field: part.fieldname, message: `is not a file field (use ${field})` }],
      );
    }
    const name = cleanFileName(part.filename);
    try {
      const blob = await ctx.storage.putStream(bytesOf(part), UPLOAD_FILE_MAX_BYTES);
      allowance?.stored(blob.size);
      stored.push({ name, ...blob });
    } catch (error) {
      if (error instanceof TooLargeError) {
        throw new ApiError(413, 'file_too_large', `${name} is larger than 25 MB`, [
          { field, message: `${name} is larger than 25 MB` },
        ]);
      }
      throw error;
    }
  }
  if (stored.length === 0) {
    throw new ApiError(400, 'invalid_request', 'No file was sent', [{ field, message: 'is required' }]);
  }
  return stored;
}

/** The file row for a stored upload: a visitor's private `upload` or an admin's `content`, owned by `owner`. */
export const uploadRow = (file: StoredUpload, kind: 'upload' | 'content', owner: string, now: number) => ({
  storage_key: file.key,
  original_name: file.name,
  mime_type: contentTypeFor(file.name),
  size: file.size,
  kind,
  source_path: null,
  owner_key: owner,
  created_at: now,
});
