/**
 * Joins byte parts into one Buffer carved out of a shared 1 MB slab, as node's own Buffer pool does
 * for small buffers (never reused: a slab is freed by the GC once no answer cut from it is alive).
 *
 * Why not Buffer.concat: a page of a pack is about 33 KB, over node's pool limit, so every answer
 * was an ArrayBuffer of its own; V8 answered thousands of them per second with a full mark-compact
 * every ~50 ms (33 in a 40,000-read run, 2 with slabs), pauses that set the page read's p99.
 */
const SLAB_BYTES = 1024 * 1024;
/** Larger joins get a Buffer of their own: a slab holds at least four. */
const LARGEST_CARVED = SLAB_BYTES / 4;

// Made at the first join, not at import: the desktop core imports this module and never joins.
let slab: Buffer | null = null;
let used = 0;

function carve(length: number): Buffer {
  if (length > LARGEST_CARVED) return Buffer.allocUnsafe(length);
  if (slab === null || used + length > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    used = 0;
  }
  const out = slab.subarray(used, used + length);
  used += length;
  return out;
}

/** The parts one after the other in one Buffer (what Buffer.concat answers). */
export function joinBytes(parts: readonly Uint8Array[]): Buffer {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = carve(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
