import type { EndpointName, EndpointOutput } from '../../shared/api/endpoints.ts';
import type { PagedList } from '../../shared/api/common.ts';
import type {
  CategoryListQuery,
  Instruction,
  InstructionListQuery,
  InstructionSummary,
} from '../../shared/api/knowledge.ts';
import { AUTH_HEADER } from '../../shared/constants.ts';
import { createCall, urlOf, type CallArgs, type Transport } from './call.ts';

export { ApiRequestError, browserTransport, type Transport } from './call.ts';

export type Api = ReturnType<typeof createApi>;

/**
 * The public site's calls, each typed by its entry of the endpoint table. List answers are kept per address for the
 * life of the client (the spec's in-memory cache); the server builds a new client for every page it renders.
 */
export function createApi(transport: Transport, headers?: () => Record<string, string>) {
  const call = createCall(transport, headers);
  const cache = new Map<string, Promise<unknown>>();
  const cached = <K extends EndpointName>(name: K, ...args: CallArgs<K>): Promise<EndpointOutput<K>> => {
    const url = urlOf(name, args[0]);
    let entry = cache.get(url) as Promise<EndpointOutput<K>> | undefined;
    if (!entry) {
      entry = call(name, ...args);
      cache.set(url, entry);
      entry.catch(() => cache.delete(url));
    }
    return entry;
  };
  return {
    call,
    branding: () => cached('getBranding'),
    environments: () => cached('getEnvironments'),
    me: (token: string) => call('getMe', { headers: { [AUTH_HEADER]: token } }),
    sections: () => cached('listSections'),
    // A category's children are asked for as the specification's call names them: query, page, per_page and
    // category_parent_id (the query's value, as for a category's articles, is '1').
    categories: (query: CategoryListQuery = {}) =>
      cached('listCategories', {
        query: query.category_parent_id === undefined ? query : { query: '1', ...query },
      }),
    // Without parameters the list is the bundle of every article, without bodies; with any, a page of full ones.
    instructionBundle: () => cached('listInstructions') as Promise<PagedList<InstructionSummary>>,
    instructions: (query: InstructionListQuery) =>
      cached('listInstructions', { query: { query: '1', ...query } }) as Promise<PagedList<Instruction>>,
    instruction: (id: number) => call('getInstruction', { params: { id } }),
    suggestions: (text: string, limit: number) =>
      call('getSuggestions', { query: { text, limit, perPage: limit } }),
  };
}
