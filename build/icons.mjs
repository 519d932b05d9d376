// The app's icons, all from assets/mark.svg (issue 28), as plain PNG/ICO files with zlib, no
// downloads and no browser: the mark is made of <rect> elements only (rounded corners allowed),
// which this file rasterises itself, 4x4 samples a pixel. Writes:
// - assets/icon.png (1024, macOS: electron-builder makes the .icns from it) and assets/icon-512.png;
// - assets/icon.ico (Windows: 16, 24, 32, 48, 64, 128, 256; PNG-compressed entries);
// - assets/icons/<n>x<n>.png (Linux: 16 to 512);
// - renderer/public/favicon.ico (16, 32, 48) and renderer/public/favicon.svg (the browser mode's tab).
// Run: npm run icons. test/build/icons.test.ts checks the files are what this writes.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGBA PNG of `size` x `size` whose pixels come from `pixel(x, y)` (pixel coordinates). */
export function png(size, pixel) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) raw.set(pixel(x, y), y * (size * 4 + 1) + 1 + x * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The rects of an SVG made of rects only: viewBox size and [{x, y, w, h, rx, rgb}]; anything else drawn is refused. */
export function readMark(svg) {
  const view = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  if (!view) throw new Error('mark.svg: expected viewBox="0 0 w h"');
  const body = svg.replace(/<!--[\s\S]*?-->/g, '').replace(/<title>[^<]*<\/title>/, '');
  const other = /<(?!\/?svg\b|rect\b)[a-z]+/i.exec(body);
  if (other) throw new Error(`mark.svg: only <rect> can be rasterised here, found ${other[0]}>`);
  const num = (tag, name, fallback) => {
    const m = new RegExp(`\\s${name}="([\\d.]+)"`).exec(tag);
    if (m) return Number(m[1]);
    if (fallback === undefined) throw new Error(`mark.svg: ${tag} has no ${name}`);
    return fallback;
  };
  const rects = [...body.matchAll(/<rect\b[^>]*>/g)].map(([tag]) => {
    const fill = /\sfill="#([0-9a-f]{6})"/i.exec(tag);
    if (!fill) throw new Error(`mark.svg: ${tag} needs fill="#rrggbb"`);
    const n = parseInt(fill[1], 16);
    return {
      x: num(tag, 'x', 0),
      y: num(tag, 'y', 0),
      w: num(tag, 'width'),
      h: num(tag, 'height'),
      rx: num(tag, 'rx', 0),
      rgb: [n >> 16, (n >> 8) & 255, n & 255],
    };
  });
  return { width: Number(view[1]), height: Number(view[2]), rects };
}

const inside = (r, x, y) => {
  if (x < r.x || x > r.x + r.w || y < r.y || y > r.y + r.h) return false;
  if (r.rx === 0) return true;
  const cx = Math.min(Math.max(x, r.x + r.rx), r.x + r.w - r.rx);
  const cy = Math.min(Math.max(y, r.y + r.rx), r.y + r.h - r.rx);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r.rx * r.rx;
};

/** The mark at `size` pixels: each pixel the average of 4x4 samples (the last rect that covers a sample paints it). */
export function rasterise(mark, size) {
  const S = 4;
  return png(size, (px, py) => {
    let r = 0;
    let g = 0;
    let b = 0;
    let a = 0;
    for (let sy = 0; sy < S; sy++) {
      for (let sx = 0; sx < S; sx++) {
        const x = ((px + (sx + 0.5) / S) / size) * mark.width;
        const y = ((py + (sy + 0.5) / S) / size) * mark.height;
        let hit = null;
        for (const rect of mark.rects) if (inside(rect, x, y)) hit = rect;
        if (hit) {
          r += hit.rgb[0];
          g += hit.rgb[1];
          b += hit.rgb[2];
          a += 1;
        }
      }
    }
    // Colour averaged over the covered samples (no dark fringe), coverage as alpha.
    return a === 0 ? [0, 0, 0, 0] : [Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((255 * a) / (S * S))];
  });
}

/** A Windows .ico holding the given PNGs (one entry each; 256 is written as 0, as the format says). */
export function ico(pngs) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = 6 + 16 * pngs.length;
  const entries = pngs.map(({ size, data }) => {
    const e = Buffer.alloc(16);
    e[0] = size >= 256 ? 0 : size;
    e[1] = size >= 256 ? 0 : size;
    e.writeUInt16LE(1, 4); // colour planes
    e.writeUInt16LE(32, 6); // bits per pixel
    e.writeUInt32LE(data.length, 8);
    e.writeUInt32LE(offset, 12);
    offset += data.length;
    return e;
  });
  return Buffer.concat([header, ...entries, ...pngs.map((p) => p.data)]);
}

export const WINDOWS_SIZES = [16, 24, 32, 48, 64, 128, 256];
export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
export const FAVICON_SIZES = [16, 32, 48];

/** Every icon file as [path relative to the project, bytes]. */
export function iconFiles(root) {
  const mark = readMark(readFileSync(join(root, 'assets', 'mark.svg'), 'utf8'));
  const cache = new Map();
  const at = (size) => {
    if (!cache.has(size)) cache.set(size, rasterise(mark, size));
    return cache.get(size);
  };
  return [
    ['assets/icon.png', at(1024)],
    ['assets/icon-512.png', at(512)],
    ['assets/icon.ico', ico(WINDOWS_SIZES.map((size) => ({ size, data: at(size) })))],
    ...LINUX_SIZES.map((size) => [`assets/icons/${size}x${size}.png`, at(size)]),
    ['renderer/public/favicon.ico', ico(FAVICON_SIZES.map((size) => ({ size, data: at(size) })))],
  ];
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  for (const [path, data] of iconFiles(root)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), data);
    console.log(`wrote ${path} (${data.length} bytes)`);
  }
  copyFileSync(join(root, 'assets', 'mark.svg'), join(root, 'renderer', 'public', 'favicon.svg'));
  console.log('wrote renderer/public/favicon.svg');
}
