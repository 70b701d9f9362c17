import type { ErrorBody, FieldError } from '../../../shared/api/common.ts';
import type {
  CaptchaChallenge,
  IssueOpenBody,
  IssueOpenResult,
  UploadedFile,
} from '../../../shared/api/tickets.ts';
import { AUTH_HEADER } from '../../../shared/constants.ts';
import { apiPaths } from '../../../shared/paths.ts';

export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly fields: FieldError[],
    message: string,
  ) {
    super(message);
  }
}

async function send<T>(path: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, credentials: 'same-origin' });
  } catch {
    throw new RequestError(0, [], 'network');
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = body as Partial<ErrorBody> | undefined;
    throw new RequestError(response.status, error?.data?.errors ?? [], error?.message ?? response.statusText);
  }
  return body as T;
}

const authHeaders = (token: string | null): Record<string, string> => (token ? { [AUTH_HEADER]: token } : {});

/** POST /api/file with every file as a file[] entry; the server remembers who uploaded them. */
export function uploadFiles(files: File[], token: string | null): Promise<UploadedFile[]> {
  const form = new FormData();
  for (const file of files) form.append('file[]', file, file.name);
  return send<UploadedFile[]>(apiPaths.upload, { method: 'POST', body: form, headers: authHeaders(token) });
}

export function openIssue(body: IssueOpenBody, token: string | null): Promise<IssueOpenResult> {
  return send<IssueOpenResult>(apiPaths.issueOpen, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...authHeaders(token) },
  });
}

export function fetchChallenge(url: string): Promise<CaptchaChallenge> {
  return send<CaptchaChallenge>(url, { method: 'GET', cache: 'no-store' });
}
