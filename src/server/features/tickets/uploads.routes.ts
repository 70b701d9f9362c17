import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { ISSUE_FILES_MAX, UPLOAD_FILE_MAX_BYTES, AUTH_HEADER } from '../../../shared/constants.ts';
import { apiPaths } from '../../../shared/paths.ts';
import type { UploadedFile } from '../../../shared/api/tickets.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { TooLargeError } from '../../storage/file-storage.ts';
import { authenticate } from '../auth/auth.service.ts';
import { unreferencedKeys } from '../content/content.repository.ts';
import { contentTypeFor } from '../files/content-type.ts';
import { hitRateLimit } from '../rate-limit/rate-limit.ts';
import { ensureVisitorKey, userKey } from './visitor.ts';
import { cleanFileName } from './clean-text.ts';

const FIELD_NAMES = new Set(['file[]', 'file', 'files[]', 'files']);

export async function registerUploadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(multipart, {
    // One byte over the limit reaches our own check, which refuses the file and keeps nothing of it.
    limits: {
      fileSize: UPLOAD_FILE_MAX_BYTES + 1,
      files: ISSUE_FILES_MAX,
      fields: 10,
      parts: ISSUE_FILES_MAX + 10,
    },
  });

  app.post(
    apiPaths.upload,
    {
      schema: {
        summary: 'Upload files for a support request (multipart, file[] entries)',
        tags: ['requests'],
      },
    },
    async (request, reply) => {
      await hitRateLimit(ctx.db, 'upload', request.ip, ctx.config.tickets.uploadsPerHour);
      if (!request.isMultipart()) {
        throw new ApiError(
          415,
          'unsupported_media_type',
          'Send the files as multipart/form-data in file[] entries',
          [{ field: 'file[]', message: 'expected multipart/form-data' }],
        );
      }
      const token = request.headers[AUTH_HEADER];
      const user =
        typeof token === 'string' && token ? await authenticate(ctx.db, token).catch(() => null) : null;
      const owner = user
        ? userKey(user.id)
        : ensureVisitorKey(request, reply, ctx.config.publicUrl.startsWith('https:'));

      const stored: { name: string; key: string; size: number }[] = [];
      try {
        for await (const part of request.files()) {
          if (!FIELD_NAMES.has(part.fieldname)) {
            part.file.resume();
            throw new ApiError(
              400,
              'invalid_request',
              `Unexpected field ${part.fieldname}; send files as file[]`,
              [{ field: part.fieldname, message: 'is not a file field (use file[])' }],
            );
          }
          const name = cleanFileName(part.filename);
          try {
            const blob = await ctx.storage.putStream(part.file, UPLOAD_FILE_MAX_BYTES);
            stored.push({ name, ...blob });
          } catch (error) {
            if (error instanceof TooLargeError) {
              throw new ApiError(413, 'file_too_large', `${name} is larger than 25 MB`, [
                { field: 'file[]', message: `${name} is larger than 25 MB` },
              ]);
            }
            throw error;
          }
        }
        if (stored.length === 0) {
          throw new ApiError(400, 'invalid_request', 'No file was sent', [
            { field: 'file[]', message: 'is required' },
          ]);
        }
        const now = Date.now();
        const rows = await ctx.db.transaction().execute((trx) =>
          Promise.all(
            stored.map((file) =>
              trx
                .insertInto('files')
                .values({
                  storage_key: file.key,
                  original_name: file.name,
                  mime_type: contentTypeFor(file.name),
                  size: file.size,
                  kind: 'upload',
                  source_path: null,
                  owner_key: owner,
                  created_at: now,
                })
                .returning(['id', 'original_name', 'size'])
                .executeTakeFirstOrThrow(),
            ),
          ),
        );
        return rows.map((row): UploadedFile => ({
          id: row.id,
          original_name: row.original_name,
          file_size: Number(row.size),
        }));
      } catch (error) {
        // Nothing of a refused request stays behind: its bytes go unless another file row already holds them.
        for (const key of await unreferencedKeys(
          ctx.db,
          stored.map((f) => f.key),
        ))
          await ctx.storage.remove(key);
        throw error;
      }
    },
  );
}
