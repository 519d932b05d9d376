/**
 * WCAG AA for both themes, computed from renderer/theme/tokens.css itself: every text colour on
 * every background it is drawn on reaches 4.5:1, focus rings and control borders 3:1 (WCAG 1.4.11).
 * The dark palette is written once, under [data-theme='dark'] (renderer/theme/theme.ts resolves the
 * system's scheme onto <html>).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const css = readFileSync(join(import.meta.dirname, '..', '..', '..', 'renderer', 'theme', 'tokens.css'), 'utf8');

/** The custom properties declared in the block that opens with `opening` ({ ... } without nested blocks). */
function block(opening: string): Map<string, string> {
  const start = css.indexOf(opening);
  if (start < 0) throw new Error(`tokens.css has no block ${opening}`);
  const body = css.slice(css.indexOf('{', start + opening.length - 1) + 1, css.indexOf('}', start));
  const props = new Map<string, string>();
  for (const m of body.matchAll(/(--[a-z0-9-]+):\s*([^;]+);/g)) props.set(m[1] as string, (m[2] as string).trim());
  return props;
}

const light = block(':root {');
const darkChosen = block(":root[data-theme='dark'] {");
/** Dark overrides only colours and shadows: the rest comes from :root. */
const dark = new Map([...light, ...darkChosen]);

function rgb(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`expected a #rrggbb colour, got ${hex}`);
  const n = parseInt(m[1] as string, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const surfaces = ['--color-bg', '--color-surface', '--color-surface-alt', '--color-surface-sunken'];
/** Text colours on the backgrounds the stylesheets put them on. */
const TEXT: [string, string[]][] = [
  ['--color-text', [...surfaces, '--color-accent-soft', '--color-warning-soft', '--color-danger-soft', '--color-success-soft']],
  ['--color-text-muted', [...surfaces, '--color-accent-soft']],
  ['--color-accent', surfaces],
  ['--color-accent-text', ['--color-accent-soft', '--color-surface']],
  ['--color-on-accent', ['--color-accent', '--color-accent-strong']],
  ['--color-on-inverse', ['--color-inverse']],
  ['--color-on-danger', ['--color-danger-solid']],
  ['--color-danger-text', [...surfaces, '--color-danger-soft']],
  ['--color-warning-text', [...surfaces, '--color-warning-soft']],
  ['--color-success-text', [...surfaces, '--color-success-soft']],
];
/** Non-text: what shows focus or the edge of a control (3:1). */
const UI: [string, string[]][] = [
  ['--color-focus', surfaces],
  ['--color-border-strong', ['--color-surface', '--color-bg']],
  ['--color-danger', ['--color-surface', '--color-danger-soft']],
  ['--color-warning', ['--color-surface', '--color-warning-soft']],
  ['--color-success', ['--color-surface']],
];

describe.each([
  ['light', light],
  ['dark', dark],
])('the %s theme', (_name, theme) => {
  const value = (token: string) => {
    const v = theme.get(token);
    if (v === undefined) throw new Error(`tokens.css does not declare ${token}`);
    return v;
  };
  it.each(TEXT)('%s reads at 4.5:1 or more on its backgrounds', (fg, bgs) => {
    for (const bg of bgs) expect({ fg, bg, ratio: contrast(value(fg), value(bg)) >= 4.5 }).toEqual({ fg, bg, ratio: true });
  });
  it.each(UI)('%s stands out at 3:1 or more', (fg, bgs) => {
    for (const bg of bgs) expect({ fg, bg, ratio: contrast(value(fg), value(bg)) >= 3 }).toEqual({ fg, bg, ratio: true });
  });
});

describe('tokens.css', () => {
  it('writes the dark palette once, under data-theme (no copy under prefers-color-scheme)', () => {
    expect(darkChosen.size).toBeGreaterThan(20);
    expect(css).not.toMatch(/prefers-color-scheme/);
    expect(css.match(/data-theme='dark'\]\s*\{/g)).toHaveLength(1);
  });

  it('overrides in dark every colour the light theme declares', () => {
    const colours = [...light.keys()].filter((k) => k.startsWith('--color-'));
    expect(colours.filter((k) => !darkChosen.has(k))).toEqual([]);
  });

  it('computes contrast as WCAG does (black on white is 21:1, a colour on itself 1:1)', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrast('#0d6b5e', '#0d6b5e')).toBe(1);
  });
});
