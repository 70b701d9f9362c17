import { AUTH_HEADER } from '../../../shared/constants.ts';
import { browserTransport, createCall } from '../../api/call.ts';
import { readToken } from './session-token.ts';

const tokenHeader = (): Record<string, string> => {
  const token = readToken();
  return token ? { [AUTH_HEADER]: token } : {};
};

/** The one client call, carrying this browser's admin token. */
export const adminCall = createCall(browserTransport, tokenHeader);

/** Content files, sent as the multipart `file` parts the upload endpoint reads. */
export function uploadFiles(files: File[]) {
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  return adminCall('uploadContentFiles', { body: form });
}

/** Files for a reply to a request: uploaded as the team member's own, then named in the reply. */
export function uploadReplyFiles(files: File[]) {
  const form = new FormData();
  for (const file of files) form.append('file[]', file, file.name);
  return adminCall('uploadRequestFiles', { body: form });
}
