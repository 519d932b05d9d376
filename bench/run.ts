import { writeFileSync, mkdirSync } from 'node:fs';
import { benchCounting } from './counting.js';
import { benchFirstPull } from './first-pull.js';
import { benchImport } from './import.js';
import { benchMessages } from './messages.js';
import { benchPull } from './pull.js';
import { benchStart } from './start.js';
import { benchStock } from './stock.js';
import { benchSync } from './sync.js';
import { benchSyncBudget } from './sync-budget.js';
import { benchUi } from './ui.js';
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { type Row, benchJson, printTable, verdict } from './lib/report.js';
import { shortCommit, writeDocsFigures } from './lib/docs-figures.js';

function commitOf(): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty ? `${head}+changes` : head;
  } catch {
    return null;
  }
}

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
    ['import', benchImport],
    ['counting', benchCounting],
    ['start', benchStart],
    ['pull', benchPull],
    ['first-pull', benchFirstPull],
    ['sync-budget', benchSyncBudget],
  ];
  const startedAt = new Date().toISOString();
  const ran: string[] = [];
  const rows: Row[] = [];
  for (const [name, run] of sections) {
    if (only && only !== name) continue;
    console.error(`running ${name} ...`);
    rows.push(...(await run()));
    ran.push(name);
  }
  const table = printTable(rows);
  mkdirSync('test-output', { recursive: true });
  writeFileSync('test-output/bench.md', `${table}\n`);
  if (!only) writeDocsFigures(table, { commit: shortCommit(), date: startedAt.slice(0, 10) });
  const json = benchJson(rows, { commit: commitOf(), startedAt, node: process.version, cpus: availableParallelism(), sections: ran });
  writeFileSync('test-output/bench.json', `${JSON.stringify(json, null, 2)}\n`);
  console.error('figures written to test-output/bench.md and test-output/bench.json');
  const below = rows.filter((r) => verdict(r) !== 'ok' && verdict(r) !== '');
  if (below.length) console.error(`${below.length} figure(s) missed their target`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
