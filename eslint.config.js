import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Import zones: each layer imports only what it may (Signal Desktop's file-suffix rule, as lint).
 * Relative imports are matched by the folder they reach, so `../../preload/contract.js` is a
 * `preload` import wherever it is written. test/lint/zones.test.ts shows a violation failing.
 */
const NODE_BUILTINS = { regex: '^node:', message: 'No Node built-ins here.' };
const reach = (folder, why) => ({ group: [`**/${folder}/**`, `**/${folder}`], message: why });

export const ZONES = [
  {
    // The service and its data: the rules of SPEC.md, whoever calls them.
    files: ['main/service/**/*.ts', 'main/db/**/*.ts'],
    paths: ['electron', 'fastify', 'undici'].map((name) => ({
      name,
      message: 'The service layer has no Electron, HTTP framework or HTTP client imports; adapters call it.',
    })),
    patterns: [
      { group: ['@fastify/*'], message: 'The service layer has no HTTP framework imports.' },
      reach('preload', 'Shapes shared with the screens live in common/.'),
      reach('desktop', 'The service never reaches into the desktop shell.'),
      reach('sync', 'The service never reaches into the sync engine.'),
      reach('http', 'The service never reaches into the HTTP adapter.'),
      reach('renderer', 'The service never reaches into the screens.'),
    ],
  },
  {
    // The screens: DOM only, through window.stockroom.
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    paths: ['electron'].map((name) => ({ name, message: 'The renderer talks to main through window.stockroom only.' })),
    patterns: [reach('main', 'The renderer never imports main/: shared code lives in common/.'), NODE_BUILTINS],
  },
  {
    // The preload and the contract: no main process code (it runs sandboxed, or in the renderer's bundle).
    files: ['preload/**/*.ts'],
    patterns: [reach('main', 'preload/ never imports main/: shared code lives in common/.'), reach('renderer', 'preload/ never imports the screens.')],
  },
  {
    // Runtime-neutral: itself and its schema library, nothing else.
    files: ['common/**/*.ts'],
    patterns: [
      { regex: '^(?!\\.{1,2}/|zod$)', message: 'common/ imports only itself and zod.' },
      ...['main', 'preload', 'renderer', 'test', 'bench'].map((folder) => reach(folder, 'common/ imports only itself and zod.')),
    ],
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test-output/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js', 'build/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      // A promise nobody awaits is an answer sent before the work is done, or an error nobody sees.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  ...ZONES.map(({ files, paths = [], patterns = [] }) => ({ files, rules: { 'no-restricted-imports': ['error', { paths, patterns }] } })),
  {
    files: ['renderer/**/*.tsx', 'renderer/**/*.ts', 'test/renderer/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
