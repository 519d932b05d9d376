import { builtinModules } from 'node:module';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Import zones: each layer imports only what it may (Signal Desktop's file-suffix rule, as lint).
 * Relative imports are matched by the folder they reach, so `../../desktop/core.js` is a
 * `desktop` import wherever it is written. A zone's names and folders are refused in static
 * imports and in dynamic `import()` alike. test/lint/zones.test.ts shows every zone failing.
 */
const NODE_BUILTIN_NAMES = builtinModules.filter((m) => !m.startsWith('_'));
/** Packages that run only in Node (native code, sockets, the file system). */
const NODE_ONLY_PACKAGES = ['better-sqlite3', 'undici', 'fastify', 'electron-updater', 'tsx', 'esbuild'];
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A zone: `files`, the packages it may not import (`names`, each with why), the folders it may
 * not reach (`folders`, each with why), the modules it may import types from but no values
 * (`typesOnly`), `builtins` when Node's own modules are refused (bare or `node:`), and `only`
 * when it may import nothing but itself and these packages.
 */
export const ZONES = [
  {
    // The service and its data: the rules of SPEC.md, whoever calls them.
    files: ['main/service/**/*.ts', 'main/db/**/*.ts'],
    names: [
      ['electron', 'The service layer has no Electron, HTTP framework or HTTP client imports; adapters call it.'],
      ['fastify', 'The service layer has no Electron, HTTP framework or HTTP client imports; adapters call it.'],
      ['@fastify/*', 'The service layer has no HTTP framework imports.'],
      ['undici', 'The service layer has no Electron, HTTP framework or HTTP client imports; adapters call it.'],
    ],
    folders: [
      ['preload', 'Shapes shared with the screens live in common/.'],
      ['desktop', 'The service never reaches into the desktop shell.'],
      ['sync', 'The service never reaches into the sync engine.'],
      ['http', 'The service never reaches into the HTTP adapter.'],
      ['ipc', 'The service never reaches into the IPC adapter.'],
      ['web', 'The service never reaches into the browser-mode adapter.'],
      ['renderer', 'The service never reaches into the screens.'],
    ],
  },
  {
    // The sync engine: the service, the database and the remote's HTTP client; no shell, no adapter.
    files: ['main/sync/**/*.ts'],
    names: [
      ['electron', 'The sync engine runs under Node alone (tests, the browser mode); the shell passes it what it needs.'],
      ['fastify', 'The sync engine is a client, never a server.'],
    ],
    folders: [
      ['desktop', 'The sync engine never reaches into the desktop shell; the shell drives it.'],
      ['http', 'The sync engine never reaches into the HTTP adapter.'],
      ['ipc', 'The sync engine never reaches into the IPC adapter.'],
      ['web', 'The sync engine never reaches into the browser-mode adapter.'],
      ['renderer', 'The sync engine never reaches into the screens.'],
      ['preload', 'Shapes shared with the screens live in common/.'],
    ],
  },
  {
    // The desktop core: the app's functions over the service and the engine, with no Electron
    // (main/app.ts and main/ipc are the Electron layer), so it runs under Node in the tests.
    files: ['main/desktop/**/*.ts'],
    names: [
      ['electron', 'main/desktop has no Electron imports: main/app.ts and main/ipc pass it what it needs.'],
      ['fastify', 'main/desktop has no HTTP server; main/http and main/web are the adapters.'],
    ],
    folders: [
      ['http', 'main/desktop never reaches into the HTTP adapter.'],
      ['ipc', 'main/desktop never reaches into the IPC adapter.'],
      ['web', 'main/desktop never reaches into the browser-mode adapter.'],
      ['renderer', 'main/desktop never reaches into the screens.'],
      ['preload', 'Shapes shared with the screens live in common/.'],
    ],
  },
  {
    // The adapters and the shell: anything of main/, never the screens or the preload script.
    files: ['main/**/*.ts'],
    ignores: ['main/service/**', 'main/db/**', 'main/sync/**', 'main/desktop/**'],
    folders: [
      ['renderer', 'main/ never imports the screens.'],
      ['preload', 'main/ never imports the preload script: the contract lives in common/contract/.'],
    ],
  },
  {
    // The screens: DOM only, through window.stockroom.
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    names: [
      ['electron', 'The renderer talks to main through window.stockroom only.'],
      ...NODE_ONLY_PACKAGES.map((n) => [n, 'The renderer runs in a browser: no Node-only packages.']),
    ],
    builtins: true,
    // The contract's schemas are zod: a value import of it ships zod in the screens' bundle.
    typesOnly: [['**/contract/contract.js', 'The renderer imports only types from the contract (its values pull zod into the bundle).']],
    folders: [
      ['main', 'The renderer never imports main/: shared code lives in common/.'],
      ['preload', 'The renderer compiles against the contract in common/contract/, not the preload script.'],
    ],
  },
  {
    // The preload script: Electron's bridge over the contract, sandboxed (no Node built-ins).
    files: ['preload/**/*.ts'],
    names: NODE_ONLY_PACKAGES.map((n) => [n, 'The preload runs sandboxed: no Node-only packages.']),
    builtins: true,
    folders: [
      ['main', 'preload/ never imports main/: shared code lives in common/.'],
      ['renderer', 'preload/ never imports the screens.'],
    ],
  },
  {
    // Runtime-neutral: itself and its schema library, nothing else.
    files: ['common/**/*.ts'],
    only: ['zod'],
    folders: ['main', 'preload', 'renderer', 'test', 'bench'].map((folder) => [folder, 'common/ imports only itself and zod.']),
  },
];

const BUILTINS_WHY = 'No Node built-ins here.';
const ONLY_WHY = (only) => `common/ imports only itself and ${only.join(', ')}.`;

/** The zone's two rules: no-restricted-imports for static imports, no-restricted-syntax for import(). */
function zoneRules({ names = [], folders = [], typesOnly = [], builtins = false, only }) {
  const paths = names.filter(([n]) => !n.includes('*')).map(([name, message]) => ({ name, message }));
  const patterns = [
    ...names.filter(([n]) => n.includes('*')).map(([n, message]) => ({ group: [n], message })),
    ...folders.map(([folder, message]) => ({ group: [`**/${folder}/**`, `**/${folder}`], message })),
    ...typesOnly.map(([glob, message]) => ({ group: [glob], message, allowTypeImports: true })),
    ...(builtins
      ? [
          { regex: '^node:', message: BUILTINS_WHY },
          { regex: `^(${NODE_BUILTIN_NAMES.map(escape).join('|')})(/.*)?$`, message: BUILTINS_WHY },
        ]
      : []),
    ...(only ? [{ regex: `^(?!\\.{1,2}/|(${only.map(escape).join('|')})$)`, message: ONLY_WHY(only) }] : []),
  ];
  // The same refusals for a dynamic import() of a literal name.
  const dynamic = [
    ...names.map(([n, message]) => ({ re: `^${escape(n).replace('\\*', '.*')}$`, message })),
    ...folders.map(([folder, message]) => ({ re: `(^|/)${escape(folder)}(/|$)`, message })),
    ...(builtins ? [{ re: `^(node:|(${NODE_BUILTIN_NAMES.map(escape).join('|')})(/|$))`, message: BUILTINS_WHY }] : []),
    ...(only ? [{ re: `^(?!\\.{1,2}/|(${only.map(escape).join('|')})$)`, message: ONLY_WHY(only) }] : []),
  ].map(({ re, message }) => ({
    // A slash ends esquery's regex literal: written as \x2F.
    selector: `ImportExpression > Literal.source[value=/${re.replaceAll('\\/', '/').replaceAll('/', '\\x2F')}/]`,
    message: `${message} (dynamic import)`,
  }));
  // typescript-eslint's form of the rule: the same options, and `allowTypeImports`.
  return { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }], 'no-restricted-syntax': ['error', ...dynamic] };
}

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
  ...ZONES.map((zone) => ({ files: zone.files, ...(zone.ignores ? { ignores: zone.ignores } : {}), rules: zoneRules(zone) })),
  {
    files: ['renderer/**/*.tsx', 'renderer/**/*.ts', 'test/renderer/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
