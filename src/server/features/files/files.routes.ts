import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { route, type EndpointRequest, type WhoAsks } from '../../http/route.ts';
import { FILE_DOWNLOAD_POLICY } from '../../http/csp.ts';
import { contentDisposition, isSafeInline } from '../../lib/content-type.ts';
import { findFile, readersOfContentFile } from '../../files/files.repository.ts';
import { audienceOf, mayRead, type Audience } from '../../content/visibility.ts';
import type { Executor } from '../../db/database.ts';
import type { FileRow } from '../../db/tables.ts';
import { isValidContentFileLink } from '../../files/content-file-links.ts';

export function registerFileRoutes(app: FastifyInstance, { db, storage }: AppContext): void {
  // Who asks is the route's to say (`identifies: 'files'`, accounts/roles.ts): the editor, or the session cookie's,
  // asked only for a file not everyone may read.
  route(app, endpoints.downloadFile, async (request, reply, whoAsks) => {
    const file = await findFile(db, request.params.id);
    const readers = file ? await readersOfContentFile(db, file) : null;
    const isPublic = readers === 'everyone';
    if (!file || (!isPublic && !(await mayDownload(db, file, readers, request, whoAsks)))) {
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

/**
 * Whether a file not everyone may read goes to this request. A file of content for signed-in visitors goes to one,
 * known by the session cookie (an <img> or a link sends it), or through the signed link its page gave a visitor known
 * by the auth header alone; the editor (the header, or the cookie the admin API sets for <img> tags) also sees drafts'
 * files and fresh uploads. Nobody gets another kind of file here.
 */
async function mayDownload(
  db: Executor,
  file: FileRow,
  readers: Audience | null,
  request: EndpointRequest<typeof endpoints.downloadFile>,
  whoAsks: WhoAsks,
): Promise<boolean> {
  if (file.kind !== 'content') return false;
  if (
    readers === 'signed_in' &&
    (await isValidContentFileLink(db, file.id, request.query.expires, request.query.signature))
  )
    return true;
  const session = await whoAsks();
  if (readers === 'signed_in' && mayRead(audienceOf(session?.user), readers)) return true;
  return session?.editor === true;
}
