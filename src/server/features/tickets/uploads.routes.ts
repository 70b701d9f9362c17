import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { UploadedFile } from '../../../shared/api/tickets.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { insertFile } from '../../files/files.repository.ts';
import { storeUploadedParts, uploadRow } from '../../files/store-uploads.ts';
import { clientKey } from '../../rate-limit/client-address.ts';
import { UploadAllowance } from './upload-allowance.ts';
import { ensureVisitorKey, userKey } from '../../tickets/index.ts';

export function registerUploadRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, endpoints.uploadRequestFiles, async (request, reply, session) => {
    const client = clientKey(request);
    if (!request.isMultipart()) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        'Send the files as multipart/form-data in file[] entries',
        [{ field: 'file[]', message: 'expected multipart/form-data' }],
      );
    }
    const owner = session ? userKey(session.user.id) : ensureVisitorKey(request, reply);

    const allowance = new UploadAllowance(ctx, client, 'file[]');
    try {
      await allowance.coverDeclared(request.headers['content-length']);
      const stored = await storeUploadedParts(ctx, request.files(), 'file[]', allowance);
      const now = Date.now();
      const rows = await allowance.commit((trx) =>
        Promise.all(stored.map((file) => insertFile(trx, uploadRow(file, 'upload', owner, now)))),
      );
      return rows.map((row): UploadedFile => ({
        id: row.id,
        original_name: row.original_name,
        file_size: Number(row.size),
      }));
    } finally {
      // A give-back that fails leaves the room taken until the hour after next, never longer.
      await allowance
        .release()
        .catch((error: unknown) => request.log.warn({ err: error }, 'upload allowance not given back'));
    }
  });
}
