import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export const contentType = (file: string) => TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

/**
 * A file of the built renderer for a URL path: `/` and paths without an extension (client-side
 * routes) are index.html; anything that resolves outside `root` is refused (null).
 */
export async function rendererFile(root: string, urlPath: string): Promise<{ file: string; body: Buffer } | null> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  if (path === '/' || path === '' || extname(path) === '') path = '/index.html';
  const base = resolve(root);
  const file = resolve(base, `.${path}`);
  if (!file.startsWith(base + sep)) return null;
  try {
    if (!(await stat(file)).isFile()) return null;
    return { file, body: await readFile(file) };
  } catch {
    return null;
  }
}
