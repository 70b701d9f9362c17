import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const importBan = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
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
    files: ['src/web/**'],
    rules: importBan(['**/server/**', '**/cli/**'], 'The web client talks to the server over HTTP only.'),
  },
  {
    files: ['src/server/**'],
    rules: importBan(['**/web/**', '**/cli/**'], 'The server does not depend on the web client or the CLI.'),
  },
);
