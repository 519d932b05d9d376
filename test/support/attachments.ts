import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiResponse, TestServer } from './server.js';

/** The upload path of SPEC 4.12; `site` null leaves `site_id` out. */
export const uploadPath = (site: string | null = 'MLA') => `/messages/attachments?tag=post_sale${site === null ? '' : `&site_id=${encodeURIComponent(site)}`}`;

/** The download path of SPEC 4.13. */
export const downloadPath = (id: string, site: string | null = 'MLA') =>
  `/messages/attachments/${encodeURIComponent(id)}?tag=post_sale${site === null ? '' : `&site_id=${encodeURIComponent(site)}`}`;

/** A form with one file part (field `file` unless told otherwise), as a browser would send it. */
export function fileForm(bytes: Uint8Array | string, name: string, type = 'application/octet-stream', field = 'file'): FormData {
  const form = new FormData();
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  form.append(field, new Blob([data as Uint8Array<ArrayBuffer>], { type }), name);
  return form;
}

/** Uploads one file as `token`; resolves with the response (its body is `{ id }` on success). */
export function upload(
  server: TestServer,
  token: string | null,
  bytes: Uint8Array | string,
  name: string,
  opts: { type?: string; site?: string | null } = {},
): Promise<ApiResponse<{ id: string }>> {
  return server.as(token).raw<{ id: string }>('POST', uploadPath(opts.site === undefined ? 'MLA' : opts.site), {
    raw: fileForm(bytes, name, opts.type),
  });
}

/** Uploads and returns the new attachment id, failing loudly on any other answer. */
export async function uploadId(server: TestServer, token: string, bytes: Uint8Array | string, name: string, type?: string): Promise<string> {
  const res = await upload(server, token, bytes, name, type === undefined ? {} : { type });
  if (res.status !== 200 || typeof res.body.id !== 'string') throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/**
 * A hand-written multipart body, for what FormData cannot express (raw quotes or separators in a
 * file name, several file parts, a part without a file name).
 */
export function rawMultipart(parts: { disposition: string; type?: string; body: Uint8Array | string }[]): { body: Uint8Array; contentType: string } {
  const boundary = `----stockroom${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: ${p.disposition}\r\n`;
    if (p.type !== undefined) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), Buffer.from(p.body), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: new Uint8Array(Buffer.concat(chunks)), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Every regular file under `dir` (relative paths), for asserting what the store holds. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p, `${prefix}${n}/`);
      else out.push(`${prefix}${n}`);
    }
  };
  walk(dir, '');
  return out.sort();
}
