// eslint.config.js - the JavaScript tree's lint (run by scripts/check-style):
// ESLint's recommended rules plus a few that catch real mistakes, with each
// environment's globals. Types are tsc's job (tsconfig.json and its siblings).
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    // generated or vendored: the built site, installed packages, build output;
    // io_wasm.js is an Emscripten --js-library (#if preprocessed, not plain JS)
    ignores: ['web/dist/**', 'node_modules/**', 'build/**', '.venv/**', 'wasm/driver/io_wasm.js'],
  },
  js.configs.recommended,
  {
    // 2025: import attributes (webmcp/vocabulary.js imports the build's JSON)
    languageOptions: { ecmaVersion: 2025, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-shadow': 'error',
      'no-implicit-coercion': ['error', { allow: ['!!'] }],
      'no-throw-literal': 'error',
      'no-promise-executor-return': 'error',
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'require-atomic-updates': 'off',
    },
  },
  { files: ['web/src/**/*.js', 'webmcp/**/*.js'], languageOptions: { globals: globals.browser } },
  { files: ['web/src/worker/**/*.js'], languageOptions: { globals: globals.worker } },
  {
    files: ['scripts/**/*.mjs', 'tests/**/*.mjs', '**/*.test.mjs', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // an Emscripten --pre-js: runs inside Emscripten's Module scope under Node
    files: ['wasm/util-env.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.node, Module: 'writable', ENV: 'readonly' } },
  },
];
