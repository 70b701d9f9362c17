import { ApiRequestError } from '../../api/call.ts';

export { fieldErrorsOf, type FieldErrors } from '../../api/call.ts';

export function statusOf(error: unknown): number | null {
  return error instanceof ApiRequestError ? error.status : null;
}

export function codeOf(error: unknown): string | null {
  return error instanceof ApiRequestError ? (error.body?.code ?? null) : null;
}

/** One sentence for the person: the server's own message when there is one. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 401) return 'Your session has ended: sign in again.';
    if (error.status === 403) return 'This account is not an administrator.';
    return error.body?.message ?? `The server answered ${error.status}.`;
  }
  if (error instanceof TypeError)
    return 'The server could not be reached. Check the connection and try again.';
  return error instanceof Error ? error.message : 'Something went wrong.';
}
