import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const importBan = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

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
              regex: '^\\.\\./(?!\\.\\.)',
              message: 'A feature does not import another feature: move what both need out of features/.',
            },
            { group: ['**/features/**'], message: 'A feature does not import another feature.' },
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
    ignores: [
      'src/server/features/**',
      'src/server/render/**',
      'src/server/{app,main,context,context-factory,cluster}.ts',
      '**/*.test.ts',
    ],
    rules: importBan(
      ['**/features/**', '**/web/**', '**/cli/**'],
      "The server's shared parts import no feature: features use them, app.ts registers the features.",
    ),
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
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: [
      '**/*.repository.ts',
      'src/server/db/**',
      'src/server/storage/database-storage.ts',
      '**/*.test.ts',
      'src/server/testing/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'MemberExpression[property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message:
            "Queries live in the feature's *.repository.ts: call a repository function that takes `db`.",
        },
        {
          selector: 'ImportDeclaration[source.value="kysely"] > ImportSpecifier[imported.name="sql"]',
          message: "Raw SQL lives in the feature's *.repository.ts (or src/server/db).",
        },
      ],
    },
  },
);
