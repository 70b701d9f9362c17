import type { IssueOpenBody } from '../../../shared/api/tickets.ts';
import { AUTH_HEADER } from '../../../shared/constants.ts';
import { call } from '../../api/call.ts';

const authHeaders = (token: string | null): Record<string, string> => (token ? { [AUTH_HEADER]: token } : {});

/** POST /api/file with every file as a file[] entry; the server remembers who uploaded them. */
export function uploadFiles(files: File[], token: string | null) {
  const form = new FormData();
  for (const file of files) form.append('file[]', file, file.name);
  return call('uploadRequestFiles', { body: form, headers: authHeaders(token) });
}

export const openIssue = (body: IssueOpenBody, token: string | null) =>
  call('issueOpen', { body, headers: authHeaders(token) });

/** A fresh proof-of-work challenge (never from the browser's cache); its address is the environments' challenge_url. */
export const fetchChallenge = () => call('getCaptchaChallenge', { cache: 'no-store' });

/**
 * The form's name for a field the server names: the captcha's answer and every file (the request's `files` ids,
 * the upload's `file[]` parts) have one place each.
 */
export const formField = (field: string) =>
  field === 'g_recaptcha_response' ? 'captcha' : /^files?\b/.test(field) ? 'files' : field;
