import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closeOnSignals, runWeb } from './run.js';

/**
 * `npm run web -- [--port <n>] [--data <dir>] [--dev] [--renderer <dir>]`: the app in a browser, on
 * 127.0.0.1, against the same data as the desktop app. Prints one line with the address to open
 * (the per-run token is in its fragment). `--renderer` serves an already built renderer folder
 * instead of dist/renderer (the start bench serves the e2e build).
 */
export async function main(argv = process.argv.slice(2), intro?: string): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: 'string', default: '0' }, data: { type: 'string' }, dev: { type: 'boolean', default: false }, renderer: { type: 'string' } },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, got ${values.port}`);
  const web = await runWeb({
    port,
    dev: values.dev,
    ...(values.data ? { dataDir: resolve(values.data) } : {}),
    ...(values.renderer ? { rendererDir: resolve(values.renderer) } : {}),
    // The address as soon as the server listens: the page loads while the core opens.
    onListening: (server, dataDir) => console.log(`${intro ?? 'Stockroom in your browser'}: ${server.url} (data: ${dataDir})`),
  });
  closeOnSignals(web, 'web');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(`web: ${(e as Error).message}`);
    process.exit(1);
  });
}
