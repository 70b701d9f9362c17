import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { FILE_DOWNLOAD_POLICY } from '../../http/csp.ts';
import { contentDisposition, isSafeInline } from '../../lib/content-type.ts';
import { adminOfFileRequest } from '../../accounts/admin-session.ts';
import { findFile, isPublicContentFile } from '../../files/files.repository.ts';

export function registerFileRoutes(app: FastifyInstance, { db, storage }: AppContext): void {
  route(app, endpoints.downloadFile, async (request, reply) => {
    const file = await findFile(db, request.params.id);
    const isPublic = file ? await isPublicContentFile(db, file) : false;
    // Admins (header, or the cookie the admin API sets for <img> tags) also see drafts' files and fresh uploads.
    const forAdmin =
      !isPublic && file?.kind === 'content' && (await adminOfFileRequest(db, request)) !== null;
    if (!file || (!isPublic && !forAdmin)) {
      throw notFound(`File ${request.params.id}`);
    }
    // Checked before any download header is set, so a lost file answers the plain JSON error, never cacheable.
    if (!(await storage.has(file.storage_key))) {
      throw new Error(`file ${file.id}: stored bytes ${file.storage_key} are missing`);
    }
    const etag = `"${file.storage_key}"`;
    reply
      .header('Content-Type', file.mime_type)
      .header('Content-Length', String(file.size))
      .header('X-Content-Type-Options', 'nosniff')
      // Opened as a document (an HTML or SVG download, say), a file runs nothing and loads nothing.
      .header('Content-Security-Policy', FILE_DOWNLOAD_POLICY)
      .header(
        'Content-Disposition',
        contentDisposition(isSafeInline(file.mime_type) ? 'inline' : 'attachment', file.original_name),
      )
      .header('Cache-Control', isPublic ? 'public, max-age=300' : 'private, no-store')
      .header('ETag', etag);
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.send(storage.read(file.storage_key));
  });
}
