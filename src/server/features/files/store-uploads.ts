import type { MultipartFile } from '@fastify/multipart';
import { UPLOAD_FILE_MAX_BYTES } from '../../../shared/constants.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { TooLargeError } from '../../storage/file-storage.ts';
import { cleanFileName } from '../tickets/clean-text.ts';
import { contentTypeFor } from './content-type.ts';

/** The names clients give file parts; errors name the one the caller's own client sends. */
const FIELD_NAMES = new Set(['file[]', 'file', 'files[]', 'files']);

export interface StoredUpload {
  name: string;
  key: string;
  size: number;
}

/**
 * Streams a multipart request's files into storage, each refused past 25 MB (413) and the request refused when a
 * part is not a file field or no file came (400); errors name `field`, the field the caller's clients send. A refused
 * request leaves no file row (the caller writes them after); bytes it wrote go with the sweep of unused bytes.
 */
export async function storeUploadedParts(
  ctx: AppContext,
  parts: AsyncIterable<MultipartFile>,
  field: string,
): Promise<StoredUpload[]> {
  const stored: StoredUpload[] = [];
  for await (const part of parts) {
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
      stored.push({ name, ...(await ctx.storage.putStream(part.file, UPLOAD_FILE_MAX_BYTES)) });
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
