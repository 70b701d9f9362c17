import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import { ISSUE_FILES_MAX, UPLOAD_FILE_MAX_BYTES } from '../../../shared/constants.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { insertFile } from '../../files/files.repository.ts';
import { storeUploadedParts, uploadRow } from '../../files/store-uploads.ts';
import { userKey } from '../../tickets/index.ts';
import { presentAdminFile } from '../../content/admin.presenters.ts';

/** Attachments and images of articles, icons, logos: the same limits as visitors' uploads. */
export const ADMIN_FILES_MAX = ISSUE_FILES_MAX;

/**
 * Admins upload content files here (multipart `file` parts, streamed into storage). A new file is visible to
 * admins only until an article, category or the branding uses it (see files.repository.ts).
 */
export function registerAdminFileRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, endpoints.uploadContentFiles, async (request, _reply, session) => {
    if (!request.isMultipart()) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        'Send the files as multipart/form-data in file parts',
        [{ field: 'file', message: 'expected multipart/form-data' }],
      );
    }
    const parts = request.files({
      limits: {
        fileSize: UPLOAD_FILE_MAX_BYTES + 1,
        files: ADMIN_FILES_MAX,
        fields: 10,
        parts: ADMIN_FILES_MAX + 10,
      },
    });
    const stored = await storeUploadedParts(ctx, parts, 'file');
    const now = Date.now();
    const rows = await ctx.db.transaction().execute(async (trx) => {
      const inserted = [];
      for (const file of stored) {
        inserted.push(await insertFile(trx, uploadRow(file, 'content', userKey(session.user.id), now)));
      }
      return inserted;
    });
    return { items: rows.map(presentAdminFile) };
  });
}
