/**
 * The GitHub workflows (.github/workflows) cannot run here; what can be checked is that they say
 * what they mean: every `npm run <script>` and `npm test` names a script of package.json, the
 * Electron workflow prepares Electron, builds and tests on the three platforms in that order, and
 * the installers wait for it. Parsed with js-yaml (electron-builder's YAML parser).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const yaml = z.object({ load: z.custom<(text: string) => unknown>((f) => typeof f === 'function') }).parse(require('js-yaml'));

const Step = z.object({ name: z.string().optional(), uses: z.string().optional(), run: z.string().optional(), if: z.string().optional() });
const Job = z.object({
  uses: z.string().optional(),
  needs: z.union([z.string(), z.array(z.string())]).optional(),
  'runs-on': z.string().optional(),
  strategy: z.object({ matrix: z.object({ os: z.array(z.string()) }) }).optional(),
  steps: z.array(Step).optional(),
});
const Workflow = z.object({ name: z.string(), on: z.record(z.string(), z.unknown()), jobs: z.record(z.string(), Job) });
type Workflow = z.infer<typeof Workflow>;

const workflow = (file: string): Workflow => Workflow.parse(yaml.load(readFileSync(join(root, '.github', 'workflows', file), 'utf8')));
const scripts = z.object({ scripts: z.record(z.string(), z.string()) }).parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))).scripts;

/** The package.json scripts a shell line runs: `npm run x`, `npm test`, `npm start`. */
function scriptsRun(line: string): string[] {
  const named = [...line.matchAll(/\bnpm run ([\w:.-]+)/g)].map((m) => m[1]!);
  const short = [...line.matchAll(/\bnpm (test|start)\b/g)].map((m) => m[1]!);
  return [...named, ...short];
}

const runs = (w: Workflow) => Object.values(w.jobs).flatMap((j) => (j.steps ?? []).flatMap((s) => (s.run ? [s.run] : [])));

describe('the GitHub workflows', () => {
  const electron = workflow('electron.yml');
  const installers = workflow('installers.yml');

  it.each([
    ['electron.yml', electron],
    ['installers.yml', installers],
  ])('%s runs only scripts package.json has', (_file, w) => {
    const used = runs(w).flatMap(scriptsRun);
    expect(used.length).toBeGreaterThan(0);
    for (const s of used) expect(Object.keys(scripts), `npm run ${s}`).toContain(s);
  });

  it('tests the app in real Electron on Linux (under Xvfb), Windows and macOS: prepare Electron, build, then test', () => {
    const job = electron.jobs.electron!;
    expect(job.strategy?.matrix.os).toEqual(['ubuntu-latest', 'windows-latest', 'macos-latest']);
    const lines = (job.steps ?? []).flatMap((s) => (s.run ? [s.run] : []));
    const at = (script: string) => lines.findIndex((l) => scriptsRun(l).includes(script));
    expect(at('electron:prepare')).toBeGreaterThan(lines.indexOf('npm ci'));
    expect(at('build:app')).toBeGreaterThan(at('electron:prepare'));
    const tests = (job.steps ?? []).filter((s) => s.run && scriptsRun(s.run).includes('test:electron'));
    expect(tests.map((s) => [s.if, s.run])).toEqual([
      ["runner.os == 'Linux'", 'xvfb-run --auto-servernum npm run test:electron'],
      ["runner.os != 'Linux'", 'npm run test:electron'],
    ]);
    expect(lines.findIndex((l) => l.includes('test:electron'))).toBeGreaterThan(at('build:app'));
    // The test script is its own vitest config, never part of `npm test`.
    expect(scripts['test:electron']).toBe('vitest run -c vitest.electron.config.ts');
    expect(scripts.test).not.toMatch(/electron/);
  });

  it('builds installers only after the Electron tests passed', () => {
    expect(Object.keys(electron.on)).toContain('workflow_call');
    expect(installers.jobs.electron?.uses).toBe('./.github/workflows/electron.yml');
    expect(installers.jobs.installers?.needs).toBe('electron');
    const lines = runs(installers);
    const build = lines.findIndex((l) => l.includes('electron-builder --publish never'));
    expect(build).toBeGreaterThan(lines.indexOf('npm test'));
    // The browser tests find the runner's Chrome (scripts/browser.ts), printed before they run.
    expect(lines.indexOf('npx tsx scripts/browser.ts --print')).toBeLessThan(lines.indexOf('npm test'));
  });
});
