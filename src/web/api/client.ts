import type { AuthUser } from '../../shared/api/auth.ts';
import type { ErrorBody } from '../../shared/api/common.ts';
import type {
  Category,
  CategoryListQuery,
  Instruction,
  InstructionListQuery,
  InstructionSummary,
  Section,
} from '../../shared/api/knowledge.ts';
import type { PagedList } from '../../shared/api/common.ts';
import type { SuggestionList } from '../../shared/api/search.ts';
import type { Branding, Environments } from '../../shared/api/settings.ts';
import { AUTH_HEADER } from '../../shared/constants.ts';
import { apiPaths, href } from '../../shared/paths.ts';

export type Query = Record<string, string | number | undefined>;

/** How a request reaches the server: fetch in the browser, an in-process call while rendering on the server. */
export interface Transport {
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: unknown }>;
}

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
  ) {
    super(body?.message ?? `request failed with status ${status}`);
  }
}

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export type Api = ReturnType<typeof createApi>;

/**
 * The specification's calls, typed by the shared contract. List answers are kept per parameter set for the life of
 * the client (the spec's in-memory cache); the server builds a new client for every page it renders.
 */
export function createApi(transport: Transport) {
  const cache = new Map<string, Promise<unknown>>();
  const get = async <T>(path: string, headers?: Record<string, string>): Promise<T> => {
    const { status, body } = await transport.get(path, headers);
    if (status >= 400) throw new ApiRequestError(status, body as ErrorBody | undefined);
    return body as T;
  };
  const cached = <T>(path: string): Promise<T> => {
    let entry = cache.get(path) as Promise<T> | undefined;
    if (!entry) {
      entry = get<T>(path);
      cache.set(path, entry);
      entry.catch(() => cache.delete(path));
    }
    return entry;
  };
  return {
    branding: () => cached<Branding>(apiPaths.branding),
    environments: () => cached<Environments>(apiPaths.environments),
    me: (token: string) => get<AuthUser>(apiPaths.me, { [AUTH_HEADER]: token }),
    sections: () => cached<Section[]>(apiPaths.sections),
    categories: (query: CategoryListQuery = {}) =>
      cached<PagedList<Category>>(withQuery(apiPaths.categories, query as Query)),
    instructionBundle: () => cached<PagedList<InstructionSummary>>(apiPaths.instructions),
    instructions: (query: InstructionListQuery) =>
      cached<PagedList<Instruction>>(withQuery(apiPaths.instructions, { query: '1', ...query } as Query)),
    instruction: (id: number) => get<Instruction>(href.instructionApi(id)),
    suggestions: (text: string, limit: number) =>
      get<SuggestionList>(withQuery(apiPaths.suggestions, { text, limit, perPage: limit })),
  };
}

export const browserTransport: Transport = {
  async get(path, headers) {
    const response = await fetch(path, { headers: { accept: 'application/json', ...headers } });
    const body: unknown = await response.json().catch(() => undefined);
    return { status: response.status, body };
  },
};
