// Writes the app icons (assets/icon.png 1024x1024, assets/icon-512.png) as plain PNG files with
// zlib, no downloads: a rounded blue square with three white shelves of boxes. electron-builder
// derives the macOS .icns and the Windows .ico from assets/icon.png when it packages.
// Run: npm run icons
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** An RGBA PNG of `size` x `size` whose pixels come from `pixel(x, y)` (coordinates 0..1). */
export function png(size, pixel) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel((x + 0.5) / size, (y + 0.5) / size);
      raw.set([r, g, b, a], y * (size * 4 + 1) + 1 + x * 4);
    }
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

/** The Stockroom mark: shelves of boxes on a rounded square. */
function stockroom(x, y) {
  const m = 0.06; // margin
  const r = 0.18; // corner radius
  const inside = (() => {
    if (x < m || x > 1 - m || y < m || y > 1 - m) return false;
    const cx = Math.min(Math.max(x, m + r), 1 - m - r);
    const cy = Math.min(Math.max(y, m + r), 1 - m - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  })();
  if (!inside) return [0, 0, 0, 0];
  const shade = Math.round(40 * y);
  const background = [37 - shade / 4, 99 - shade / 2, 235 - shade, 255];
  const shelves = [0.36, 0.58, 0.8];
  for (const s of shelves) if (y > s && y < s + 0.035 && x > 0.2 && x < 0.8) return [255, 255, 255, 255];
  const boxes = [
    [0.24, 0.2, 0.14, 0.16],
    [0.42, 0.24, 0.12, 0.12],
    [0.58, 0.18, 0.16, 0.18],
    [0.24, 0.44, 0.2, 0.14],
    [0.48, 0.46, 0.12, 0.12],
    [0.64, 0.42, 0.12, 0.16],
    [0.24, 0.66, 0.12, 0.14],
    [0.4, 0.64, 0.18, 0.16],
    [0.62, 0.68, 0.14, 0.12],
  ];
  for (const [bx, by, bw, bh] of boxes) {
    if (x > bx && x < bx + bw && y > by && y < by + bh) {
      const edge = x < bx + 0.012 || x > bx + bw - 0.012 || y < by + 0.012 || y > by + bh - 0.012;
      return edge ? [255, 255, 255, 255] : [250, 204, 21, 255];
    }
  }
  return background;
}

const assets = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets');
mkdirSync(assets, { recursive: true });
for (const [name, size] of [
  ['icon.png', 1024],
  ['icon-512.png', 512],
]) {
  writeFileSync(join(assets, name), png(size, stockroom));
  console.log(`wrote assets/${name} (${size}x${size})`);
}
