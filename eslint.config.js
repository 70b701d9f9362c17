import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const importBan = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

/**
 * A relative path that steps out of a folder into a sibling (`../other/x`): from a feature's folder, another feature.
 * Written plainly (see UNPLAIN_PATH), every path that reaches a sibling starts so.
 */
const SIBLING_FOLDER = '^\\.\\./(?!\\.\\.)';
/**
 * A relative path not written plainly: `./../x`, `a/./b`, `a/../b`, `a//b`, a trailing slash. It names the same file
 * as its plain form, which the boundary rules read; written so, it would pass them unseen.
 */
const UNPLAIN_PATH = '^\\./\\.\\.(/|$)|/\\.(/|$)|[^./]/\\.\\.(/|$)|^\\.{1,2}/.*//|^\\.{1,2}/.*/$';
const PLAIN_PATH_MESSAGE =
  'Write a relative import plainly (./x, ../x, ../../x): the boundary rules read the path as written.';
const SHARED_PARTS_MESSAGE =
  "The server's shared parts import no feature: features use them, app.ts registers the features.";
/** The server's files that are not its shared parts: the features, the renderer and the composition roots. */
const SERVER_NOT_SHARED = [
  'src/server/features/**',
  'src/server/render/**',
  'src/server/{app,main,context,context-factory,cluster}.ts',
];
/** Where SQL is written: the repositories, the database layer, the database file store. */
const SQL_HOMES = ['**/*.repository.ts', 'src/server/db/**', 'src/server/storage/database-storage.ts'];
const TEST_FILES = ['**/*.test.ts', 'src/server/testing/**'];

/** Kysely's query starters, by which a query is begun on `db` or a transaction. */
const QUERY_STARTERS = '/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/';
const QUERY_MESSAGE =
  "Queries live in the feature's *.repository.ts: call a repository function that takes `db`.";
const RAW_SQL_MESSAGE = "Raw SQL lives in the feature's *.repository.ts (or src/server/db).";
/** SQL outside its homes, however it is reached: a method, a computed member, raw SQL, a compiled query. */
const SQL_BANS = [
  { selector: `MemberExpression[property.name=${QUERY_STARTERS}]`, message: QUERY_MESSAGE },
  { selector: `MemberExpression[computed=true][property.value=${QUERY_STARTERS}]`, message: QUERY_MESSAGE },
  {
    selector: `MemberExpression[computed=true][property.quasis.0.value.cooked=${QUERY_STARTERS}]`,
    message: QUERY_MESSAGE,
  },
  { selector: `ObjectPattern > Property[key.name=${QUERY_STARTERS}]`, message: QUERY_MESSAGE },
  {
    selector: 'ImportDeclaration[source.value="kysely"] > ImportSpecifier[imported.name="sql"]',
    message: RAW_SQL_MESSAGE,
  },
  {
    selector: 'ImportDeclaration[source.value="kysely"][importKind="value"] > ImportNamespaceSpecifier',
    message: `A namespace import of kysely reaches sql and CompiledQuery. ${RAW_SQL_MESSAGE}`,
  },
  {
    selector:
      'ImportDeclaration[source.value="kysely"][importKind="value"] > ImportSpecifier[imported.name="CompiledQuery"][importKind="value"]',
    message: `CompiledQuery runs SQL written by hand. ${RAW_SQL_MESSAGE}`,
  },
  {
    selector: 'MemberExpression[object.name="CompiledQuery"]',
    message: `CompiledQuery runs SQL written by hand. ${RAW_SQL_MESSAGE}`,
  },
  { selector: 'ImportExpression[source.value="kysely"]', message: RAW_SQL_MESSAGE },
];

/** A dynamic import() is held to the rules of a static one; one whose path is not a plain string cannot be. */
const DYNAMIC_PATH_BAN = {
  selector: 'ImportExpression:not([source.type="Literal"])',
  message: 'Import a path written as a plain string, which the boundary rules can read.',
};
const dynamicImportBan = (pattern, message) => ({
  selector: `ImportExpression[source.value=/${pattern}/]`,
  message,
});
const OUTSIDE_SERVER = '(^|/)(web|cli)(/|$)';
const OUTSIDE_SERVER_MESSAGE = 'The server does not depend on the web client or the CLI.';
const FEATURE_IMPORT_BANS = [
  DYNAMIC_PATH_BAN,
  dynamicImportBan(
    SIBLING_FOLDER.replaceAll('/', '\\/'),
    'A feature does not import another feature: move what both need out of features/.',
  ),
  dynamicImportBan('(^|\\/)features\\/', 'A feature does not import another feature.'),
  dynamicImportBan(UNPLAIN_PATH.replaceAll('/', '\\/'), PLAIN_PATH_MESSAGE),
  dynamicImportBan(OUTSIDE_SERVER.replaceAll('/', '\\/'), OUTSIDE_SERVER_MESSAGE),
];
const SHARED_IMPORT_BANS = [
  DYNAMIC_PATH_BAN,
  dynamicImportBan('(^|\\/)(features|web|cli)(\\/|$)', SHARED_PARTS_MESSAGE),
  dynamicImportBan(UNPLAIN_PATH.replaceAll('/', '\\/'), PLAIN_PATH_MESSAGE),
];
const syntaxBan = (...lists) => ({ 'no-restricted-syntax': ['error', ...lists.flat()] });

/** What no browser code imports. */
const WEB_IMPORT_BANS = [
  { group: ['**/server/**', '**/cli/**'], message: 'The web client talks to the server over HTTP only.' },
  { group: ['**/shared/api/**'], allowTypeImports: true, message: 'Import only types from shared/api.' },
  { group: ['typebox', 'typebox/*'], message: 'The schema library stays out of the browser bundle.' },
];

/**
 * The web client's layers, lowest first: shared parts (components, lib, api, i18n; in the admin app admin/components,
 * admin/lib, admin/api), then features (features/X, admin/features/X), then what composes them: the site's frame
 * (layout/), the pages (routes/, admin/routes/), the portal and the entries. A layer imports only layers below it, and
 * a feature imports its own files and shared parts, never another feature. Each block below repeats
 * WEB_IMPORT_BANS: in a flat config a later `no-restricted-imports` for the same file replaces the earlier one.
 */
const ANOTHER_FEATURE = [
  {
    // `../other/x` and `./../other/x`: a sibling folder, that is another feature.
    regex: '^(\\./)*\\.\\./(\\./)*(?!\\.\\.?/)',
    message: 'A feature does not import another feature: move what both need into a shared part.',
  },
  { group: ['**/features/**'], message: 'A feature does not import another feature.' },
];
const ANY_FEATURE = [
  {
    group: ['**/features/**'],
    message: 'Shared parts import no feature: move what they need out of the feature into the shared part.',
  },
];
const COMPOSERS = [
  {
    group: ['**/routes/**', '**/routes.tsx', '**/layout/**', '**/portal/**', '**/entry-*'],
    message:
      'Pages, the frame, the portal and the entries compose features and shared parts; nothing below imports them.',
  },
];
const ADMIN_COMPOSERS = [
  {
    group: ['**/routes/**', '**/routes.tsx', '**/entry-*'],
    message:
      "The admin app's pages and entry compose its features and shared parts; nothing below imports them.",
  },
];
const THE_ADMIN_APP = [
  { group: ['**/admin/**'], message: 'The public site and the portal do not use the admin app.' },
];
/** Preact hydrates what React renders on the server, and their useIds differ (see the src/web block). */
const USE_ID_BAN = {
  name: 'react',
  importNames: ['useId'],
  message: "React's and Preact's useId differ: give the element an id of its own (a prop, the page's).",
};
const webImports = (patterns, publicSite = true) => ({
  'no-restricted-imports': [
    'error',
    { patterns: [...WEB_IMPORT_BANS, ...patterns], ...(publicSite ? { paths: [USE_ID_BAN] } : {}) },
  ],
});

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // The architecture, held by the linter: shared imports neither side, web never imports server.
  {
    files: ['src/shared/**'],
    rules: importBan(
      ['**/server/**', '**/web/**', '**/cli/**', 'node:*'],
      'src/shared is the contract: no runtime-specific imports.',
    ),
  },
  {
    files: ['src/server/**'],
    ignores: ['src/server/render/**'],
    rules: importBan(['**/web/**', '**/cli/**'], 'The server does not depend on the web client or the CLI.'),
  },
  // The server renders the public pages: only render/ reaches into src/web, through the entry and API client.
  {
    files: ['src/server/render/**'],
    rules: importBan(
      ['**/cli/**', '**/web/routes/**', '**/web/features/**'],
      'Render through src/web/entry-server.tsx.',
    ),
  },
  // Features stand alone: a feature (src/server/features/X) imports its own files and the server's shared parts
  // (accounts, content, files, settings, lib, http, db...), never another feature; the shared parts import no feature.
  // Only the composition roots (app, main, context, cluster) and the CLI put features together. Tests may set the
  // scene with another feature's functions.
  {
    files: ['src/server/features/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: SIBLING_FOLDER,
              message: 'A feature does not import another feature: move what both need out of features/.',
            },
            { regex: UNPLAIN_PATH, message: PLAIN_PATH_MESSAGE },
            { group: ['**/features/**'], message: 'A feature does not import another feature.' },
            // Who may call is the endpoint table's to say (role, identifies) and route()'s to check, never a handler's.
            {
              group: [
                '**/accounts/accounts.service.ts',
                '**/accounts/session-cookie.ts',
                '**/accounts/admin-session.ts',
              ],
              importNames: [
                'authenticate',
                'requireAdmin',
                'requireTeam',
                'sessionCookieToken',
                'editorOfFileRequest',
              ],
              message:
                "No handler checks a token itself: route() does, by the endpoint's role and `identifies`.",
            },
            {
              group: ['**/web/**', '**/cli/**'],
              message: 'The server does not depend on the web client or the CLI.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**'],
    ignores: [...SERVER_NOT_SHARED, '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/web/**', '**/cli/**'],
              message: SHARED_PARTS_MESSAGE,
            },
            { regex: UNPLAIN_PATH, message: PLAIN_PATH_MESSAGE },
          ],
        },
      ],
    },
  },
  // The browser bundle must not pull in the schema library: values come from shared/constants and shared/paths.
  // The public site's pages are rendered by React on the server and hydrated by Preact in the browser, whose
  // `useId`s differ from React's: its ids are its own (docs/decisions.md, "First-load JavaScript").
  {
    files: ['src/web/**'],
    ignores: ['src/web/admin/**'],
    rules: webImports([]),
  },
  { files: ['src/web/features/**'], rules: webImports([...ANOTHER_FEATURE, ...COMPOSERS, ...THE_ADMIN_APP]) },
  {
    files: ['src/web/{components,lib,api,i18n}/**'],
    rules: webImports([...ANY_FEATURE, ...COMPOSERS, ...THE_ADMIN_APP]),
  },
  { files: ['src/web/{layout,portal}/**'], rules: webImports(THE_ADMIN_APP) },
  {
    files: ['src/web/admin/**'],
    rules: webImports([], false),
  },
  {
    files: ['src/web/admin/features/**'],
    rules: webImports([...ANOTHER_FEATURE, ...ADMIN_COMPOSERS], false),
  },
  {
    files: ['src/web/admin/{components,lib,api}/**'],
    rules: webImports([...ANY_FEATURE, ...ADMIN_COMPOSERS], false),
  },
  // SQL lives in repositories (`*.repository.ts`) and in the database layer (db/, the database file store); services,
  // routes and the import and export call repository functions that take `db` or a transaction. Tests may query.
  // no-restricted-syntax takes one list per file (a later block's replaces an earlier one's), so each block below
  // lists every ban its files are held to: SQL outside its homes, dynamic imports that cross a boundary.
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: [...SQL_HOMES, ...TEST_FILES],
    rules: syntaxBan(SQL_BANS),
  },
  {
    files: ['src/server/features/**'],
    ignores: [...SQL_HOMES, ...TEST_FILES],
    rules: syntaxBan(FEATURE_IMPORT_BANS, SQL_BANS),
  },
  { files: ['src/server/features/**/*.repository.ts'], rules: syntaxBan(FEATURE_IMPORT_BANS) },
  {
    files: ['src/server/**'],
    ignores: [...SERVER_NOT_SHARED, ...SQL_HOMES, ...TEST_FILES],
    rules: syntaxBan(SHARED_IMPORT_BANS, SQL_BANS),
  },
  { files: SQL_HOMES, ignores: [...SERVER_NOT_SHARED, ...TEST_FILES], rules: syntaxBan(SHARED_IMPORT_BANS) },
  // Small pieces: a function reads on one screen and a component file holds one page or part. Tests and migrations
  // (written once, read as a whole) are outside. No comment lets a piece off (lint-boundaries.test.ts).
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'src/server/db/migrations/**'],
    rules: { 'max-lines-per-function': ['error', { max: 100 }] },
  },
  {
    files: ['src/web/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: { 'max-lines': ['error', { max: 250 }] },
  },
);
