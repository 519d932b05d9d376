/**
 * The accessibility audit's check (issue 28): axe-core run in the page as it is now, through the
 * DevTools protocol. Used by test/e2e/a11y.test.ts over every screen, and by flows that reach a
 * state the demo data cannot (the conflict dialog in test/e2e/scanning.test.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { z } from 'zod';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const results = z.object({
  violations: z.array(
    z.object({
      id: z.string(),
      impact: z.string().nullable().optional(),
      help: z.string(),
      nodes: z.array(z.object({ target: z.array(z.unknown()), failureSummary: z.string().optional() })),
    }),
  ),
});

/** The serious and critical violations on the page as it is now, one line per rule with up to 3 elements. */
export async function audit(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (scripts from its own origin only) refuses an inline <script>.
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(AXE);
  // label-content-name-mismatch is experimental in axe and off by default: on, a visible word missing from a name fails.
  const raw = await page.evaluate<unknown>(`axe.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })`);
  return results
    .parse(raw)
    .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes.length} element(s): ${v.nodes
          .slice(0, 3)
          .map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`)
          .join(' | ')}`,
    );
}
