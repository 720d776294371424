// ESLint over the project's JavaScript: the recommended rules, with each folder's globals. The page
// scripts (web/) are classic scripts sharing one namespace, GCSCOPE; workers, the service worker,
// node tests, Playwright specs and benchmarks each run in an environment of their own.
import js from '@eslint/js';
import globals from 'globals';

const strictness = {
  'no-unused-vars': ['error', { args: 'after-used', caughtErrors: 'none' }],
  'no-unreachable': 'error',
  'no-useless-assignment': 'error',
  'no-constant-condition': ['error', { checkLoops: false }],
  'no-var': 'error',
  'prefer-const': ['error', { destructuring: 'all' }],
  eqeqeq: ['error', 'smart'],
};

export default [
  { ignores: ['build/**', 'node_modules/**', '.deps/**', 'web/vendor/**', 'web/sql/vendor/**', 'fuzz/**'] },
  js.configs.recommended,
  { rules: strictness },
  {
    files: ['web/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { ...globals.browser, GCSCOPE: 'readonly' },
    },
  },
  {
    files: ['web/worker.js', 'web/reader.js'],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ['web/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Modules that node tests load too (module.exports beside the page's GCSCOPE namespace).
    files: ['web/lib/recipes.js', 'web/lib/state.js', 'web/lib/keys.js'],
    languageOptions: { globals: { module: 'writable' } },
  },
  {
    files: ['tests/node/**/*.js', 'tests/sql/**/*.js', 'tests/cli/**/*.js', 'playwright.config.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
  {
    // Code emscripten puts before the Catch2 tests compiled to wasm (--pre-js), run by node.
    files: ['tests/wasm_env.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.node, Module: 'writable', ENV: 'writable' } },
  },
  {
    // Playwright specs and browser benchmarks: node code whose page.evaluate() callbacks run in the page.
    files: ['e2e/**/*.js', 'bench/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.browser, GCSCOPE: 'readonly' } },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node } },
  },
];
