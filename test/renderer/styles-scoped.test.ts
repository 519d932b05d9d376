/**
 * The renderer's stylesheets stay scoped (issue 28): an area's sheet holds only rules inside
 * `@scope (<its root>)`, so nothing in it reaches another area; renderer/ui's sheets (the shared
 * components, shown in every area) only style their own `.ui-` classes; renderer/styles.css holds
 * only the page, the controls' base look, the focus ring, the skip link and the visually hidden
 * utility. No sheet but renderer/theme/tokens.css writes a colour or a font size as a literal.
 * Each check is run on a sample that breaks it first, so it is seen failing.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER = join(import.meta.dirname, '..', '..', 'renderer');

function sheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sheets(join(dir, e.name)) : e.name.endsWith('.css') ? [join(dir, e.name)] : [],
  );
}

/** A style rule (its selector and the at-rules around it) or a declaration (its property and value). */
type Item = { kind: 'rule'; selector: string; within: string[] } | { kind: 'declaration'; property: string; value: string };

/** Reads a stylesheet into its style rules and declarations (enough CSS for the app's sheets: blocks, at-rules, comments, strings). */
function parse(css: string): Item[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, ' ');
  const items: Item[] = [];
  const stack: string[] = [];
  let buffer = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      buffer += text.slice(i, end + 1);
      i = end;
    } else if (c === '{') {
      const prelude = buffer.trim();
      buffer = '';
      if (!prelude.startsWith('@')) items.push({ kind: 'rule', selector: prelude, within: stack.filter((s) => s.startsWith('@')) });
      stack.push(prelude);
    } else if (c === '}' || c === ';') {
      const m = /^\s*([-a-zA-Z]+)\s*:([\s\S]*)$/.exec(buffer);
      if (m && !(stack.at(-1) ?? '@').startsWith('@'))
        items.push({ kind: 'declaration', property: (m[1] as string).toLowerCase(), value: (m[2] as string).trim() });
      buffer = '';
      if (c === '}') stack.pop();
    } else buffer += c;
  }
  return items;
}

/** A selector list's selectors: commas at the top level only (not those inside :is() or :where()). */
function selectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of list) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += c;
  }
  return [...out, current.trim()];
}

const rules = (css: string) => parse(css).filter((x): x is Extract<Item, { kind: 'rule' }> => x.kind === 'rule');
const declarations = (css: string) => parse(css).filter((x): x is Extract<Item, { kind: 'declaration' }> => x.kind === 'declaration');

/** Selectors that sit outside any @scope (keyframe steps are not selectors). */
function unscoped(css: string): string[] {
  return rules(css)
    .filter((r) => !r.within.some((a) => a.startsWith('@scope')) && !r.within.some((a) => a.startsWith('@keyframes')))
    .map((r) => r.selector);
}

/** @scope roots that are not an element of the area (the page, <html>, <body>, everything). */
function wideRoots(css: string): string[] {
  const roots = [...css.replace(/\/\*[\s\S]*?\*\//g, ' ').matchAll(/@scope\s*\(([^)]*)\)/g)].map((m) => (m[1] as string).trim());
  return roots.filter((root) => root.split(',').some((r) => !/^\.[a-z][a-z0-9-]*/.test(r.trim())));
}

/** renderer/ui selectors whose every part does not start with one of the component's own classes. */
function unprefixed(css: string): string[] {
  return rules(css)
    .filter((r) => !r.within.some((a) => a.startsWith('@keyframes')))
    .flatMap((r) => selectors(r.selector))
    .filter((s) => !s.startsWith('.ui-'));
}

/** In styles.css: selectors that name a class other than the global utilities. */
function notGlobal(css: string): string[] {
  return rules(css)
    .flatMap((r) => selectors(r.selector))
    .filter((s) => [...s.matchAll(/\.([a-zA-Z][\w-]*)/g)].some((m) => !['skip-link', 'visually-hidden', 'primary', 'link'].includes(m[1] as string)));
}

const COLOUR_NAMES =
  /\b(white|black|red|green|blue|gray|grey|silver|maroon|purple|fuchsia|lime|olive|yellow|navy|teal|aqua|orange|pink|brown|gold|cyan|magenta|indigo|violet|beige|tan|coral|salmon|crimson|khaki|ivory|lavender|turquoise|tomato)\b/i;
/** Declarations that write a colour as a literal (hex, rgb/hsl/oklch/…, a named colour) instead of a token. */
function rawColours(css: string): string[] {
  return declarations(css)
    .filter((d) => !d.property.startsWith('--') && !['white-space', 'font-family', 'content'].includes(d.property))
    .filter((d) => {
      const bare = d.value.replace(/var\([^)]*\)/g, ' ');
      return /#[0-9a-fA-F]{3,8}\b/.test(bare) || /\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/i.test(bare) || COLOUR_NAMES.test(bare);
    })
    .map((d) => `${d.property}: ${d.value}`);
}

/** Font sizes that are not a token (nor a keyword that follows the parent). */
function rawFontSizes(css: string): string[] {
  const sizes = declarations(css).flatMap((d) =>
    d.property === 'font-size' ? [d.value] : d.property === 'font' && /\d/.test(d.value.replace(/var\([^)]*\)/g, '')) ? [d.value] : [],
  );
  // A token, a multiple of one (a glyph standing in for a picture), or a keyword that follows the parent.
  return sizes.filter(
    (v) => !/^(var\(--text-[a-z0-9-]+\)|calc\(var\(--text-[a-z0-9-]+\) \* [0-9.]+\))$/.test(v) && !['inherit', 'smaller', 'larger', '100%'].includes(v),
  );
}

const all = sheets(RENDERER).map((path) => ({ path, name: relative(RENDERER, path).split('\\').join('/'), css: readFileSync(path, 'utf8') }));
const TOKENS = 'theme/tokens.css';
const GLOBAL = 'styles.css';
const areas = all.filter((s) => s.name !== TOKENS && s.name !== GLOBAL && !s.name.startsWith('ui/'));
const components = all.filter((s) => s.name.startsWith('ui/'));

describe('the checks fail on a sheet that breaks them', () => {
  it('finds a rule outside the scope, and a scope over the whole page', () => {
    expect(unscoped('@scope (.stock-screen) { :scope .a { color: var(--color-text); } }\n.leak { margin: 0; }')).toEqual(['.leak']);
    expect(unscoped('@media (min-width: 1px) { .leak { margin: 0 } } @scope (.x) { @media (min-width: 1px) { .in { margin: 0 } } }')).toEqual(['.leak']);
    expect(wideRoots('@scope (body) { .a { margin: 0 } } @scope (.inbox) { .b { margin: 0 } }')).toEqual(['body']);
  });
  it('finds a component rule without its prefix, and a class rule in the global sheet', () => {
    expect(unprefixed('.ui-menu, .menu-item { margin: 0 } .ui-field > :is(input, select) { margin: 0 }')).toEqual(['.menu-item']);
    expect(notGlobal(':where(button) { margin: 0 } .skip-link:focus { margin: 0 } .status-bar { margin: 0 }')).toEqual(['.status-bar']);
  });
  it('finds raw colours and raw font sizes, and lets tokens through', () => {
    expect(
      rawColours(
        '@scope (.a) { :scope { color: #fff; background: rgb(0 0 0 / 25%); border-color: white; outline-color: var(--color-focus); white-space: nowrap } }',
      ),
    ).toEqual(['color: #fff', 'background: rgb(0 0 0 / 25%)', 'border-color: white']);
    expect(
      rawFontSizes(
        '.a { font-size: 0.85rem } .b { font-size: 14px } .c { font-size: var(--text-sm) } .f { font-size: calc(var(--text-3xl) * 3) } .g { font-size: calc(1rem * 3) } .d { font: 600 1rem/1.2 var(--font-sans) } .e { font: inherit }',
      ),
    ).toEqual(['0.85rem', '14px', 'calc(1rem * 3)', '600 1rem/1.2 var(--font-sans)']);
  });
});

describe('the renderer stylesheets', () => {
  it('finds the sheets (an area per folder, the shared components, the global sheet, the tokens)', () => {
    expect(all.map((s) => s.name)).toEqual(
      expect.arrayContaining([GLOBAL, TOKENS, 'ui/ui.css', 'ui/controls.css', 'welcome/welcome.css', 'settings/settings.css']),
    );
    expect(areas.length).toBeGreaterThan(8);
  });

  it.each(areas.map((s) => [s.name, s.css]))('%s: every rule is inside @scope of an element of its area', (_name, css) => {
    expect(unscoped(css)).toEqual([]);
    expect(wideRoots(css)).toEqual([]);
  });

  it.each(components.map((s) => [s.name, s.css]))('%s: every rule styles a .ui- class of the component', (_name, css) => {
    expect(unprefixed(css)).toEqual([]);
  });

  it('styles.css holds only global rules: the page, the controls, the focus ring, the skip link, visually hidden', () => {
    const css = all.find((s) => s.name === GLOBAL)?.css ?? '';
    expect(notGlobal(css)).toEqual([]);
  });

  it.each(all.filter((s) => s.name !== TOKENS).map((s) => [s.name, s.css]))('%s: colours and font sizes come from the tokens', (_name, css) => {
    expect(rawColours(css)).toEqual([]);
    expect(rawFontSizes(css)).toEqual([]);
  });
});
