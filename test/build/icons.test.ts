/**
 * The app's icons (issue 28): every file build/icons.mjs writes is in the tree and is what it
 * writes from the current assets/mark.svg (so the mark and the icons cannot drift apart); the
 * Windows .ico holds 16 to 256, Linux has a PNG per size, the browser mode has its favicon, and
 * electron-builder.yml points each platform at its file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error build/icons.mjs is plain JavaScript run by `npm run icons`, without declarations.
import { FAVICON_SIZES, LINUX_SIZES, WINDOWS_SIZES, iconFiles, readMark } from '../../build/icons.mjs';

const root = join(import.meta.dirname, '..', '..');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const pngSize = (png: Buffer) => {
  expect(png.subarray(0, 8)).toEqual(PNG);
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
};

/** The entries of an .ico: the size each says and the size of the PNG it holds. */
function icoEntries(file: Buffer) {
  expect(file.readUInt16LE(2)).toBe(1);
  return Array.from({ length: file.readUInt16LE(4) }, (_, i) => {
    const e = 6 + 16 * i;
    const said = file[e] === 0 ? 256 : (file[e] as number);
    const data = file.subarray(file.readUInt32LE(e + 12), file.readUInt32LE(e + 12) + file.readUInt32LE(e + 8));
    return { said, png: pngSize(data) };
  });
}

describe('the icons', () => {
  const files = iconFiles(root) as [string, Buffer][];

  it('are in the tree exactly as build/icons.mjs writes them from assets/mark.svg', () => {
    expect(files.length).toBeGreaterThan(10);
    for (const [path, data] of files) expect({ path, same: readFileSync(join(root, path)).equals(data) }).toEqual({ path, same: true });
    expect(readFileSync(join(root, 'renderer', 'public', 'favicon.svg'), 'utf8')).toBe(readFileSync(join(root, 'assets', 'mark.svg'), 'utf8'));
  });

  it('come in every size the installers and the browser ask for', () => {
    expect(icoEntries(readFileSync(join(root, 'assets', 'icon.ico')))).toEqual(WINDOWS_SIZES.map((s: number) => ({ said: s, png: [s, s] })));
    expect(WINDOWS_SIZES).toEqual(expect.arrayContaining([16, 32, 48, 256]));
    for (const s of LINUX_SIZES as number[]) expect(pngSize(readFileSync(join(root, 'assets', 'icons', `${s}x${s}.png`)))).toEqual([s, s]);
    expect(pngSize(readFileSync(join(root, 'assets', 'icon.png')))).toEqual([1024, 1024]);
    expect(icoEntries(readFileSync(join(root, 'renderer', 'public', 'favicon.ico')))).toEqual(FAVICON_SIZES.map((s: number) => ({ said: s, png: [s, s] })));
  });

  it('are named by electron-builder.yml and the page', () => {
    const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    expect(yml).toMatch(/win:[\s\S]*?icon: assets\/icon\.ico/);
    expect(yml).toMatch(/mac:[\s\S]*?icon: assets\/icon\.png/);
    expect(yml).toMatch(/linux:[\s\S]*?icon: assets\/icons\n/);
    const html = readFileSync(join(root, 'renderer', 'index.html'), 'utf8');
    expect(html).toContain('href="./favicon.svg"');
    expect(html).toContain('href="./favicon.ico"');
  });

  it('refuse a mark the rasteriser cannot draw, rather than drawing it wrong', () => {
    expect(() => readMark('<svg viewBox="0 0 64 64"><circle r="3"/></svg>')).toThrow(/only <rect>/);
    expect(readMark('<svg viewBox="0 0 64 64"><rect width="64" height="64" fill="#0d6b5e"/></svg>').rects).toEqual([
      { x: 0, y: 0, w: 64, h: 64, rx: 0, rgb: [13, 107, 94] },
    ]);
  });
});
