import type { EndpointName, EndpointOutput } from '../../shared/api/endpoints.ts';
import type { PagedList } from '../../shared/api/common.ts';
import type {
  CategoryListQuery,
  Instruction,
  InstructionListQuery,
  InstructionSummary,
} from '../../shared/api/knowledge.ts';
import { AUTH_HEADER, type Language } from '../../shared/constants.ts';
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
  /** The public calls, each carrying `lang` when the page has one (`?lang=`): answered in the visitor's language. */
  const publicCalls = (lang: Language | null) => {
    const inLang = <Q extends object>(query: Q): Q & { lang?: Language } =>
      lang ? { ...query, lang } : query;
    return {
      branding: () => (lang ? cached('getBranding', { query: { lang } }) : cached('getBranding')),
      sections: () => (lang ? cached('listSections', { query: { lang } }) : cached('listSections')),
      // A category's children are asked for as the specification's call names them: query, page, per_page and
      // category_parent_id (the query's value, as for a category's articles, is '1').
      categories: (query: CategoryListQuery = {}) =>
        cached('listCategories', {
          query: inLang(query.category_parent_id === undefined ? query : { query: '1', ...query }),
        }),
      // Without parameters the list is the bundle of every article, without bodies; with any, a page of full ones.
      instructionBundle: () =>
        (lang ? cached('listInstructions', { query: { lang } }) : cached('listInstructions')) as Promise<
          PagedList<InstructionSummary>
        >,
      instructions: (query: InstructionListQuery) =>
        cached('listInstructions', { query: inLang({ query: '1', ...query }) }) as Promise<
          PagedList<Instruction>
        >,
      instruction: (id: number) =>
        call('getInstruction', { params: { id }, ...(lang && { query: { lang } }) }),
      instructionNearby: (id: number) =>
        cached('getInstructionNearby', { params: { id }, ...(lang && { query: { lang } }) }),
      suggestions: (text: string, limit: number) =>
        call('getSuggestions', { query: inLang({ text, limit, perPage: limit }) }),
    };
  };
  return {
    call,
    environments: () => cached('getEnvironments'),
    me: (token: string) => call('getMe', { headers: { [AUTH_HEADER]: token } }),
    ...publicCalls(null),
    /** The same calls in the page's language (null: as without one). */
    in: (lang: Language | null) => (lang ? publicCalls(lang) : publicCalls(null)),
  };
}
