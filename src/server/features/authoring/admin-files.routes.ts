import type { FastifyInstance } from 'fastify';
import type { AdminFileList } from '../../../shared/api/admin.ts';
import { ISSUE_FILES_MAX, UPLOAD_FILE_MAX_BYTES } from '../../../shared/constants.ts';
import { apiPaths } from '../../../shared/paths.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { TooLargeError } from '../../storage/file-storage.ts';
import { unreferencedKeys } from '../content/content.repository.ts';
import { contentTypeFor } from '../files/content-type.ts';
import { cleanFileName } from '../tickets/clean-text.ts';
import { userKey } from '../tickets/visitor.ts';
import { requireAdminSession } from './admin-session.ts';
import { presentAdminFile } from './authoring.presenters.ts';

const FIELD_NAMES = new Set(['file', 'file[]', 'files', 'files[]']);
/** Attachments and images of articles, icons, logos: the same limits as visitors' uploads. */
export const ADMIN_FILES_MAX = ISSUE_FILES_MAX;

/**
 * Admins upload content files here (multipart `file` parts, streamed into storage). A new file is visible to
 * admins only until an article, category or the branding uses it (see files.repository.ts).
 */
export function registerAdminFileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const secure = ctx.config.publicUrl.startsWith('https:');
  app.post(
    apiPaths.adminFiles,
    {
      schema: {
        summary: `Upload content files (multipart \`file\` parts, up to ${ADMIN_FILES_MAX}, 25 MB each; admins)`,
        tags: ['admin'],
      },
    },
    async (request, reply) => {
      const session = await requireAdminSession(ctx.db, request, reply, secure);
      if (!request.isMultipart()) {
        throw new ApiError(
          415,
          'unsupported_media_type',
          'Send the files as multipart/form-data in file parts',
          [{ field: 'file', message: 'expected multipart/form-data' }],
        );
      }
      const stored: { name: string; key: string; size: number }[] = [];
      try {
        const parts = request.files({
          limits: {
            fileSize: UPLOAD_FILE_MAX_BYTES + 1,
            files: ADMIN_FILES_MAX,
            fields: 10,
            parts: ADMIN_FILES_MAX + 10,
          },
        });
        for await (const part of parts) {
          if (!FIELD_NAMES.has(part.fieldname)) {
            part.file.resume();
            throw new ApiError(
              400,
              'invalid_request',
              `Unexpected field ${part.fieldname}; send files as file`,
              [{ field: part.fieldname, message: 'is not a file field (use file)' }],
            );
          }
          const name = cleanFileName(part.filename);
          try {
            stored.push({ name, ...(await ctx.storage.putStream(part.file, UPLOAD_FILE_MAX_BYTES)) });
          } catch (error) {
            if (error instanceof TooLargeError) {
              throw new ApiError(413, 'file_too_large', `${name} is larger than 25 MB`, [
                { field: 'file', message: `${name} is larger than 25 MB` },
              ]);
            }
            throw error;
          }
        }
        if (stored.length === 0) {
          throw new ApiError(400, 'invalid_request', 'No file was sent', [
            { field: 'file', message: 'is required' },
          ]);
        }
        const now = Date.now();
        const rows = await ctx.db.transaction().execute(async (trx) => {
          const inserted = [];
          for (const file of stored) {
            inserted.push(
              await trx
                .insertInto('files')
                .values({
                  storage_key: file.key,
                  original_name: file.name,
                  mime_type: contentTypeFor(file.name),
                  size: file.size,
                  kind: 'content',
                  source_path: null,
                  owner_key: userKey(session.user.id),
                  created_at: now,
                })
                .returningAll()
                .executeTakeFirstOrThrow(),
            );
          }
          return inserted;
        });
        reply.status(201);
        return { items: rows.map(presentAdminFile) } satisfies AdminFileList;
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
