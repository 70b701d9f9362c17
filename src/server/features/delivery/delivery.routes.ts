import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { contentDisposition } from '../../lib/content-type.ts';
import { findFile } from '../../files/files.repository.ts';
import { isValidFileLink } from '../../tickets/index.ts';

/** The signed links in delivered tickets: the support team downloads a visitor's private upload without an account. */
export function registerDeliveryRoutes(app: FastifyInstance, { db, storage }: AppContext): void {
  route(app, endpoints.downloadTicketFile, async (request, reply) => {
    const { id } = request.params;
    if (!(await isValidFileLink(db, id, request.query.expires, request.query.signature))) {
      throw new ApiError(403, 'invalid_signature', 'This file link is invalid or has expired');
    }
    const file = await findFile(db, id);
    if (!file) throw notFound(`File ${id}`);
    if (!(await storage.has(file.storage_key))) {
      throw new Error(`file ${file.id}: stored bytes ${file.storage_key} are missing`);
    }
    // A visitor chose these bytes and their type: never render them on our origin.
    return reply
      .header('Content-Type', file.mime_type)
      .header('Content-Length', String(file.size))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', contentDisposition('attachment', file.original_name))
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', 'private, no-store')
      .send(storage.read(file.storage_key));
  });
}
