import type { ErrorBody } from '../../../shared/api/common.ts';
import type { IssueOpenBody, UploadedFile } from '../../../shared/api/tickets.ts';
import { AUTH_HEADER } from '../../../shared/constants.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { ApiRequestError, browserTransport, call } from '../../api/call.ts';

const authHeaders = (token: string | null): Record<string, string> => (token ? { [AUTH_HEADER]: token } : {});

/** POST /api/file with every file as a file[] entry; the server remembers who uploaded them. */
export async function uploadFiles(files: File[], token: string | null): Promise<UploadedFile[]> {
  const form = new FormData();
  for (const file of files) form.append('file[]', file, file.name);
  // Not yet an entry of the table: the upload routes register themselves (multipart, streamed).
  const { status, body } = await browserTransport.send({
    method: 'POST',
    url: apiPaths.upload,
    headers: { accept: 'application/json', ...authHeaders(token) },
    body: form,
  });
  if (status >= 400) throw new ApiRequestError(status, body as ErrorBody | undefined);
  return body as UploadedFile[];
}

export const openIssue = (body: IssueOpenBody, token: string | null) =>
  call('issueOpen', { body, headers: authHeaders(token) });

/** A fresh proof-of-work challenge (never from the browser's cache); its address is the environments' challenge_url. */
export const fetchChallenge = () => call('getCaptchaChallenge', { cache: 'no-store' });
