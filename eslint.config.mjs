// Lint (`npm run lint`, a step of `npm test`, zero warnings): the rules CONTRIBUTING.md states that need the
// type checker or a line count. Formatting and style are not checked here.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

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
    // An error answer is named in the error map (lib/errors.ts: apiError(name, …), badRequest, notFound …), so its
    // status is one ERRORS documents; a bare `new ApiError(<status>)` would bypass it.
    files: ['server/**/*.ts', 'app/**/*.ts', 'app/**/*.tsx', 'lib/**/*.ts', 'auth.ts'],
    ignores: ['lib/errors.ts', '**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='ApiError']", message: 'throw apiError(name, message) (lib/errors.ts), not new ApiError(status)' }] },
  },
  {
    // Written by scripts, and data tables (CONTRIBUTING.md, Where code goes).
    files: ['**/*.generated.ts', 'lib/info/**'],
    rules: { 'max-lines': 'off' },
  },
);
