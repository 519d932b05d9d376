import { mkdirSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { Settle, program } from './commands.js';
import { type Figures, System } from './system.js';

/**
 * Runs programs of the outbox's model-based test: each on a fresh remote, proxy and replica,
 * its steps through fc.asyncModelRun, then a last settle. Violations are collected in `figures`
 * (with the program that found them) rather than thrown, so a soak counts them all.
 */
export async function runProgram(
  commands: Iterable<fc.AsyncCommand<System['model'], System>>,
  last: ConstructorParameters<typeof Settle>[0],
  figures: Figures,
  seed: number,
) {
  const before = figures.violations.length;
  const system = await System.start(figures, seed);
  try {
    await fc.asyncModelRun(() => ({ model: system.model, real: system }), commands);
    await new Settle(last).run(system.model, system);
  } catch (e) {
    figures.violations.push(`the program stopped: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await system.close();
  }
  figures.programs++;
  const found = figures.violations.slice(before);
  if (found.length > 0) {
    figures.violations.push(`  in program (seed ${seed}): ${String(commands)}`);
    // The whole run, step by step, for the regression test a violation becomes.
    mkdirSync('test-output/outbox-model', { recursive: true });
    const file = `test-output/outbox-model/program-${process.pid}-${seed}.log`;
    writeFileSync(file, `${found.join('\n')}\n\n${system.trace.join('\n')}\n`);
    figures.violations.push(`  trace: ${file}`);
  }
  return found;
}

/**
 * The property: a program leaves no violation. `keepGoing` (the soak): every program runs and
 * its violations are counted, none stops the run.
 */
export function outboxProperty(figures: Figures, maxCommands: number, keepGoing = false) {
  let n = 0;
  return fc.asyncProperty(program(maxCommands), async ([commands, last]) => {
    const found = await runProgram(commands, last, figures, n++);
    if (found.length > 0 && !keepGoing) throw new Error(`violations:\n${found.join('\n')}\nprogram: ${String(commands)}`);
  });
}
