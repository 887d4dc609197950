// ESLint (flat config): typescript-eslint's recommended rules, the React hooks rules and the
// project's import-direction rule (eslint/boundaries.js). No dropped promises is a type-aware rule and
// runs in Oxlint (.oxlintrc.json), which checks types with the native TypeScript 7. Stale or
// unknown eslint-disable comments are errors. Pages take dialogs and tables from the app's own
// wrappers (eslint/ui-imports.js). Formatting is Oxfmt's job (npm run format:check, .oxfmtrc.json).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import local from './eslint/boundaries.js';
import { uiImportConfigs } from './eslint/ui-imports.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tmp/**', 'data/**', 'coverage/**', 'test-results/**'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, local },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'local/boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  ...uiImportConfigs,
);
