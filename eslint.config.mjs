// Lint (`npm run lint`, a step of `npm test`, zero warnings): the rules CONTRIBUTING.md states that need the
// type checker or a line count. Formatting and style are not checked here.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// An error answer is named in the error map (lib/errors.ts: apiError(name, …), badRequest, notFound …), so its
// status is one ERRORS documents; a bare `new ApiError(<status>)` would bypass it.
const NO_BARE_API_ERROR = { selector: "NewExpression[callee.name='ApiError']", message: 'throw apiError(name, message) (lib/errors.ts), not new ApiError(status)' };

// Domain code and the Recording module read and write through tenantDb(app, auth) or systemDb(app, reason)
// (server/db), never through the AppContext's raw client: `app.db`, `ctx['db']` or `{ db } = app` would skip the scope.
const RAW_DB = 'read and write through tenantDb(app, auth), or systemDb(app, reason) with the reason (server/db), not the raw client';
const NO_RAW_DB = [
  { selector: "MemberExpression[computed=false][property.name='db']", message: RAW_DB },
  { selector: "MemberExpression[computed=true][property.value='db']", message: RAW_DB },
  { selector: "ObjectPattern > Property[key.name='db']", message: RAW_DB },
];

export default tseslint.config(
  {
    ignores: ['node_modules/**', '.next*/**', 'data/**', 'tmp/**', 'test-results/**', 'playwright-report/**', 'public/**', 'next-env.d.ts'],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      // A promise nobody awaits loses its rejection; `void` marks one that is let go on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
      // An async callback where a void one is expected (an event handler, forEach) drops its rejection too.
      '@typescript-eslint/no-misused-promises': 'error',
      // Every line counts, comments and blank ones too: a longer file is split along its seams.
      'max-lines': ['error', { max: 350, skipBlankLines: false, skipComments: false }],
      // A focused test left in silently drops every other test of its file.
      'no-restricted-properties': ['error', ...['it', 'test', 'describe'].map((object) => ({ object, property: 'only', message: 'leave no .only in a test' }))],
    },
  },
  {
    // Hooks are called in the same order on every render, and an effect lists what it reads (or says why not).
    files: ['app/**/*.tsx', 'components/**/*.ts', 'components/**/*.tsx', 'lib/**/*.ts', 'lib/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['server/**/*.ts', 'app/**/*.ts', 'app/**/*.tsx', 'lib/**/*.ts', 'auth.ts'],
    ignores: ['lib/errors.ts', '**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_BARE_API_ERROR] },
  },
  {
    // This block's no-restricted-syntax replaces the one above for these files, so it repeats its selector.
    files: ['server/domain/**/*.ts', 'server/recordings/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_BARE_API_ERROR, ...NO_RAW_DB] },
  },
  {
    // Finalisation is a list of small named stages (issue 28 item 2): no stage, or helper of one, over 60 lines.
    files: ['server/pipeline/finalise-stages.ts', 'server/pipeline/finish-session.ts', 'server/pipeline/build-note-request.ts', 'server/pipeline/generate-visit-note.ts', 'server/pipeline/transcribe-recording.ts', 'server/pipeline/finalise-session.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Written by scripts, and data tables (CONTRIBUTING.md, Where code goes).
    files: ['**/*.generated.ts', 'lib/info/**'],
    rules: { 'max-lines': 'off' },
  },
);
