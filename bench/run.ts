import { writeFileSync, mkdirSync } from 'node:fs';
import { benchMessages } from './messages.js';
import { benchStock } from './stock.js';
import { benchSync } from './sync.js';
import { benchUi } from './ui.js';
import { type Row, printTable, verdict } from './lib/report.js';

/**
 * `npm run bench`: every figure is measured in this one run next to its floor (raw SQLite, a bare
 * HTTP server), and reported as a ratio, because these machines are shared and noisy.
 */
async function main(): Promise<void> {
  const only = process.argv[2];
  const sections: [string, () => Promise<Row[]>][] = [
    ['stock', benchStock],
    ['messages', benchMessages],
    ['sync', benchSync],
    ['ui', benchUi],
  ];
  const rows: Row[] = [];
  for (const [name, run] of sections) {
    if (only && only !== name) continue;
    console.error(`running ${name} ...`);
    rows.push(...(await run()));
  }
  const table = printTable(rows);
  mkdirSync('test-output', { recursive: true });
  writeFileSync('test-output/bench.md', `${table}\n`);
  const below = rows.filter((r) => verdict(r) !== 'ok' && verdict(r) !== '');
  if (below.length) console.error(`${below.length} figure(s) missed their target`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
