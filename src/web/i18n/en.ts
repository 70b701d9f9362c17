/**
 * The interface texts, in English. Every other language has the same keys (the type checks it). Plural keys end in
 * `_one`, `_few`, `_many` or `_other`, chosen by Intl.PluralRules for the count; `{{name}}` is replaced.
 */
export const en = {
  knowledgeTitle: 'How can we help you?',
  searchPlaceholder: 'Type your question',
  searchLabel: 'Search the knowledge base',
  searching: 'Searching results',
  nothingFound: 'Nothing found',
  noMatches: 'No matches for this query',
  enterRequest: 'Enter a request',
  showAll: 'Show all',
  clearSearch: 'Clear the search',
  suggestions_one: '{{count}} article found',
  suggestions_other: '{{count}} articles found',
  files: 'Files',
  fileSize: '{{size}} KB',
  downloadFile: 'Download {{name}} ({{size}} KB), opens in a new tab',
  copyUrl: 'Copy URL',
  urlCopied: 'Link copied',
  loading: 'Loading',
  errorOccurred: 'An error has occured',
  tryAgain: 'Try again',
  bundleIncomplete: 'Not all knowledge base components were loaded',
  bundleFailed: 'Error loading knowledge base components',
  sent: 'Sent',
  signIn: 'Sign in',
  profile: 'Profile',
  exit: 'Exit',
  main: 'Main',
  tickets: 'Tickets',
  makeRequest: 'Make a request',
  requestHint: 'Did not find the answer?',
  menu: 'Menu',
  closeMenu: 'Close menu',
  skipToContent: 'Skip to content',
  breadcrumbs: 'Breadcrumbs',
  emptyKnowledgeBase: 'There are currently no articles in the knowledge base',
  categories: 'Categories',
  articles: 'Articles',
  articlesInSection: 'Articles in this section',
  articleCount_one: '{{count}} article',
  articleCount_other: '{{count}} articles',
  categoryCount_one: '{{count}} category',
  categoryCount_other: '{{count}} categories',
  showMore: 'Show more',
  searchResultsFor: 'Search results for “{{query}}”',
  searchResults: 'Search results',
  noResultsTitle: 'No results found',
  noResultsText:
    'There is no answer to your question in the knowledge base yet. Create an appeal or use the search again.',
  pageNotFound: 'Page not found',
  pageNotFoundText: 'Perhaps it is outdated, has been deleted, or the address was incorrectly typed.',
  toMainPage: 'Go to the main page',
  toSearch: 'Search the knowledge base',
  knowledgeUnavailable: 'The knowledge base is not available.',
  logoAlt: '{{title}} logo',
};

export type MessageKey = keyof typeof en;
type ExtraPluralForm = 'zero' | 'two' | 'few' | 'many';
/** A language's texts: every English key, plus the plural forms English does not have (`articleCount_few`). */
export type Messages = Record<MessageKey, string> & { [key: `${string}_${ExtraPluralForm}`]: string };
