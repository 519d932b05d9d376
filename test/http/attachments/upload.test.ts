import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES } from '../../../main/service/messages/attachments/service.js';
import { fileForm, filesUnder, rawMultipart, upload, uploadId, uploadPath } from '../../support/attachments.js';
import { demo } from '../../support/fixtures.js';
import { type TestServer, errorBody, startTestServer } from '../../support/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

const store = () => join(server.dir, 'attachments');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const rows = () => server.db.prepare('SELECT * FROM attachments ORDER BY created_at, id').all() as Record<string, unknown>[];
/** Nothing was kept: no row, no stored file, no temp file. */
const expectNothingKept = () => {
  expect(rows()).toEqual([]);
  expect(filesUnder(store())).toEqual([]);
};
const sendRaw = (parts: Parameters<typeof rawMultipart>[0], token: string = demo.seller.token) => {
  const { body, contentType } = rawMultipart(parts);
  return server.as(token).raw('POST', uploadPath(), { raw: body, headers: { 'content-type': contentType } });
};
const pdf = '%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n';

describe('POST /messages/attachments (SPEC 4.12): success', () => {
  it('stores the file content-addressed and answers { id } keeping the extension', async () => {
    const res = await upload(server, demo.seller.token, pdf, 'Factura Nº 12.PDF', { type: 'application/pdf' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['id']);
    expect(res.body.id).toMatch(/^[0-9a-f]{32}\.pdf$/);
    const h = sha256(pdf);
    expect(filesUnder(store())).toEqual([`${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`]);
    expect(readFileSync(join(store(), h.slice(0, 2), h.slice(2, 4), h), 'utf8')).toBe(pdf);
    expect(rows()).toMatchObject([
      {
        id: res.body.id,
        uploader_id: demo.seller.id,
        site_id: 'MLA',
        original_filename: 'Factura Nº 12.PDF',
        media_type: 'application/pdf',
        size: pdf.length,
        sha256: h,
        potential_security_threat: 0,
        message_id: null,
      },
    ]);
  });

  it('derives the id extension safely from the name: lowercase [a-z0-9]{1,10}, else none', async () => {
    const cases: [string, RegExp][] = [
      ['notes', /^[0-9a-f]{32}$/],
      ['archive.tar.GZ', /^[0-9a-f]{32}\.gz$/],
      ['weird.p%df', /^[0-9a-f]{32}$/],
      ['long.abcdefghijk', /^[0-9a-f]{32}$/],
      ['ten.abcdefghij', /^[0-9a-f]{32}\.abcdefghij$/],
      ['.hidden', /^[0-9a-f]{32}$/],
      ['foto.jpeg', /^[0-9a-f]{32}\.jpeg$/],
    ];
    for (const [name, pattern] of cases) {
      expect(await uploadId(server, demo.seller.token, `content of ${name}`, name), name).toMatch(pattern);
    }
  });

  it('the same bytes uploaded twice are two ids over one file on disk, and no temp file is left', async () => {
    const a = await uploadId(server, demo.seller.token, pdf, 'a.pdf');
    const b = await uploadId(server, demo.buyer.token, pdf, 'b.pdf');
    expect(a).not.toBe(b);
    const h = sha256(pdf);
    // Atomic write: the temp folder exists (files were staged there) and is empty.
    expect(filesUnder(store())).toEqual([`${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`]);
    expect(filesUnder(join(store(), 'tmp'))).toEqual([]);
    expect(rows().map((r) => r.sha256)).toEqual([h, h]);
  });

  it('concurrent uploads of the same bytes end as one file and one row each', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => uploadId(server, i % 2 ? demo.buyer.token : demo.seller.token, pdf, `copy${i}.pdf`)));
    expect(new Set(ids).size).toBe(6);
    expect(filesUnder(store())).toHaveLength(1);
    expect(rows()).toHaveLength(6);
  });

  it('accepts a file of exactly 25 MB', async () => {
    const bytes = new Uint8Array(MAX_ATTACHMENT_BYTES).fill(0x61);
    const res = await upload(server, demo.seller.token, bytes, 'big.txt', { type: 'text/plain' });
    expect(res.status).toBe(200);
    expect(rows()).toMatchObject([{ size: 25 * 1024 * 1024, sha256: sha256(bytes) }]);
  });

  it('ignores extra form fields next to the file', async () => {
    const form = fileForm('hola', 'hola.txt', 'text/plain');
    form.append('comment', 'for the buyer');
    const res = await server.as(demo.seller.token).raw('POST', uploadPath(), { raw: form });
    expect(res.status).toBe(200);
  });
});

describe('POST /messages/attachments: media type and threat flag', () => {
  const typeOf = async (bytes: Uint8Array | string, name: string, type: string) => {
    const id = await uploadId(server, demo.seller.token, bytes, name, type);
    return server.db.prepare('SELECT media_type, potential_security_threat FROM attachments WHERE id = ?').get(id) as {
      media_type: string;
      potential_security_threat: number;
    };
  };
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

  it('keeps a declared type the bytes agree with, and corrects one they contradict', async () => {
    expect((await typeOf(png, 'p.png', 'image/png')).media_type).toBe('image/png');
    expect((await typeOf(pdf, 'scan.png', 'image/png')).media_type).toBe('application/pdf');
    expect((await typeOf('not a pdf at all', 'fake.pdf', 'application/pdf')).media_type).toBe('application/octet-stream');
    expect((await typeOf('a,b\n1,2\n', 'list.csv', 'application/octet-stream')).media_type).toBe('text/csv');
    expect((await typeOf('{"a":1}', 'data.json', 'application/json; charset=utf-8')).media_type).toBe('application/json');
  });

  it('flags an executable disguised as a PDF (MZ named invoice.pdf) and serves it as octet-stream', async () => {
    const mz = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]);
    expect(await typeOf(mz, 'invoice.pdf', 'application/pdf')).toEqual({ media_type: 'application/octet-stream', potential_security_threat: 1 });
  });

  it('flags dangerous extensions and scripts, not ordinary documents', async () => {
    expect((await typeOf('echo hi', 'setup.bat', 'application/octet-stream')).potential_security_threat).toBe(1);
    expect((await typeOf('#!/bin/sh\nrm -rf ~\n', 'readme.txt', 'text/plain')).potential_security_threat).toBe(1);
    expect((await typeOf(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1]), 'photo.jpg', 'image/jpeg')).potential_security_threat).toBe(1);
    expect((await typeOf(pdf, 'factura.pdf', 'application/pdf')).potential_security_threat).toBe(0);
    expect((await typeOf(png, 'foto.png', 'image/png')).potential_security_threat).toBe(0);
  });
});

describe('POST /messages/attachments: errors of SPEC 7.6 and the request checks', () => {
  it('401 without a token or with an unknown one, before reading the body', async () => {
    const none = await upload(server, null, 'x', 'a.txt');
    expect(errorBody(none)).toMatchObject({ status: 401, error: 'unauthorized', message: 'Access token is required' });
    const bad = await upload(server, 'APP_USR-nope', 'x', 'a.txt');
    expect(errorBody(bad)).toMatchObject({ status: 401, error: 'invalid_token' });
    expectNothingKept();
  });

  it('400 "The queryparam \'site_id\' is required", and 400 for a malformed site id or tag', async () => {
    const missing = await upload(server, demo.seller.token, 'x', 'a.txt', { site: null });
    expect(errorBody(missing)).toMatchObject({ status: 400, error: 'bad_request', message: "The queryparam 'site_id' is required" });
    const empty = await upload(server, demo.seller.token, 'x', 'a.txt', { site: '' });
    expect(errorBody(empty).message).toBe("The queryparam 'site_id' is required");
    for (const site of ['mla', 'MLAX', 'M1A', 'ML']) {
      const res = await upload(server, demo.seller.token, 'x', 'a.txt', { site });
      expect(errorBody(res).message, site).toMatch(/^The queryparam 'site_id' has an invalid value/);
    }
    const tag = await server.as(demo.seller.token).raw('POST', '/messages/attachments?tag=pre_sale&site_id=MLA', { raw: fileForm('x', 'a.txt') });
    expect(errorBody(tag)).toMatchObject({ status: 400, message: "The queryparam 'tag' has an invalid value: only 'post_sale' is supported" });
    expectNothingKept();
  });

  it('400 "File attached is empty"', async () => {
    const res = await upload(server, demo.seller.token, '', 'empty.pdf', { type: 'application/pdf' });
    expect(errorBody(res)).toMatchObject({ status: 400, error: 'bad_request', message: 'File attached is empty' });
    expectNothingKept();
  });

  it('400 "File name cannot include characters like /, \\" for the name as sent in the part header', async () => {
    for (const name of ['../../etc/passwd', 'a/b.pdf', 'C:\\Users\\x.pdf', 'x\\..\\y.pdf', '/']) {
      const res = await sendRaw([{ disposition: `form-data; name="file"; filename="${name.replace(/\\/g, '\\\\')}"`, type: 'application/pdf', body: pdf }]);
      expect(errorBody(res), name).toMatchObject({ status: 400, error: 'bad_request', message: 'File name cannot include characters like /, \\' });
    }
    // The same through FormData, as a browser sends it.
    const res = await upload(server, demo.seller.token, pdf, 'dir/inner.pdf');
    expect(errorBody(res).message).toBe('File name cannot include characters like /, \\');
    expectNothingKept();
  });

  it('400 for an empty or control-character file name', async () => {
    const empty = await sendRaw([{ disposition: 'form-data; name="file"; filename=""', body: 'x' }]);
    expect(errorBody(empty)).toMatchObject({ status: 400, message: "File name is required in the form part 'file'" });
    const tab = await sendRaw([{ disposition: 'form-data; name="file"; filename="a\tb.txt"', body: 'x' }]);
    expect(errorBody(tab)).toMatchObject({ status: 400, message: 'File name cannot include control characters' });
    const long = await upload(server, demo.seller.token, 'x', `${'a'.repeat(252)}.txt`);
    expect(errorBody(long)).toMatchObject({ status: 400, message: 'File name cannot be longer than 255 characters' });
    expectNothingKept();
  });

  it('400 "File attachment is bigger than 25 Mb." for 25 MB + 1 byte: the stream stops at the limit and nothing is kept', async () => {
    const bytes = new Uint8Array(MAX_ATTACHMENT_BYTES + 1).fill(0x62);
    const res = await upload(server, demo.seller.token, bytes, 'big.txt', { type: 'text/plain' });
    expect(errorBody(res)).toMatchObject({ status: 400, error: 'bad_request', message: 'File attachment is bigger than 25 Mb.' });
    expectNothingKept();
    // The stored bytes would have been hashed to this file; it does not exist, and the server still works.
    expect(await uploadId(server, demo.seller.token, 'after', 'after.txt')).toMatch(/^[0-9a-f]{32}\.txt$/);
  });

  it('400 for a file well over the limit: reading stops at 25 MB, the rest is dropped, the connection stays usable', async () => {
    const bytes = new Uint8Array(MAX_ATTACHMENT_BYTES + 512 * 1024).fill(0x63);
    const res = await upload(server, demo.seller.token, bytes, 'bigger.txt', { type: 'text/plain' });
    expect(errorBody(res).message).toBe('File attachment is bigger than 25 Mb.');
    expectNothingKept();
    expect(await uploadId(server, demo.seller.token, 'next', 'next.txt')).toMatch(/\.txt$/);
  });

  it('400 from the declared Content-Length alone, before any body byte is sent', async () => {
    const { port } = server;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: uploadPath(),
        headers: {
          authorization: `Bearer ${demo.seller.token}`,
          'content-type': 'multipart/form-data; boundary=xyz',
          'content-length': String(200 * 1024 * 1024),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.flushHeaders(); // headers only: the 200 MB never come
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ message: 'File attachment is bigger than 25 Mb.' });
    expectNothingKept();
  });

  it('400 for a body that is not multipart/form-data', async () => {
    const seller = server.as(demo.seller.token);
    const json = await seller.raw('POST', uploadPath(), { body: { file: 'x' } });
    expect(errorBody(json)).toMatchObject({ status: 400, error: 'bad_request' });
    expect(errorBody(json).message).toMatch(/multipart\/form-data/);
    const octets = await seller.raw('POST', uploadPath(), { raw: new Uint8Array([1, 2, 3]), headers: { 'content-type': 'application/octet-stream' } });
    expect(errorBody(octets).status).toBe(400);
    const noBoundary = await seller.raw('POST', uploadPath(), { raw: 'x', headers: { 'content-type': 'multipart/form-data' } });
    expect(errorBody(noBoundary).status).toBe(400);
    const none = await seller.raw('POST', uploadPath());
    expect(errorBody(none).status).toBe(400);
    expectNothingKept();
  });

  it("400 without a part 'file', or with the file under another name", async () => {
    const form = new FormData();
    form.append('file', 'just text, no file name');
    const noFile = await server.as(demo.seller.token).raw('POST', uploadPath(), { raw: form });
    expect(errorBody(noFile)).toMatchObject({ status: 400, message: "The form part 'file' is required" });
    const other = await server.as(demo.seller.token).raw('POST', uploadPath(), { raw: fileForm(pdf, 'a.pdf', 'application/pdf', 'document') });
    expect(errorBody(other)).toMatchObject({ status: 400, message: "Unexpected file part 'document': send the file in the form part 'file'" });
    expectNothingKept();
  });

  it('400 for more than one file part, and the first file is not kept', async () => {
    const res = await sendRaw([
      { disposition: 'form-data; name="file"; filename="one.pdf"', type: 'application/pdf', body: pdf },
      { disposition: 'form-data; name="file"; filename="two.pdf"', type: 'application/pdf', body: `${pdf}2` },
    ]);
    expect(errorBody(res)).toMatchObject({ status: 400, message: "Only one file can be uploaded per request, in the form part 'file'" });
    expectNothingKept();
  });

  it('400 for a truncated multipart body', async () => {
    const { body, contentType } = rawMultipart([{ disposition: 'form-data; name="file"; filename="a.pdf"', body: pdf }]);
    const cut = body.subarray(0, body.length - 20);
    const res = await server.as(demo.seller.token).raw('POST', uploadPath(), { raw: cut, headers: { 'content-type': contentType } });
    expect(errorBody(res)).toMatchObject({ status: 400 });
    expectNothingKept();
  });
});

describe('POST /messages/attachments: 500 "File can not be saved, try it later" when the storage fails', () => {
  it('when the storage folder is a file', async () => {
    await server.close();
    const outside = mkdtempSync(join(tmpdir(), 'stockroom-blocker-'));
    try {
      const blocker = join(outside, 'attachments');
      writeFileSync(blocker, 'not a folder');
      server = await startTestServer(undefined, { attachmentsDir: blocker });
      const res = await upload(server, demo.seller.token, pdf, 'a.pdf');
      expect(errorBody(res)).toEqual({ status: 500, error: 'internal_error', message: 'File can not be saved, try it later', cause: [] });
      expect(rows()).toEqual([]);
      expect(readFileSync(blocker, 'utf8')).toBe('not a folder');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('when the content address cannot be created: the staged file and the row are removed', async () => {
    const content = 'this content has a blocked shard folder';
    const h = sha256(content);
    // A first upload creates the store; then a plain file takes the place of the shard folder.
    await uploadId(server, demo.seller.token, 'warm up', 'w.txt');
    writeFileSync(join(store(), h.slice(0, 2)), 'in the way');
    const res = await upload(server, demo.seller.token, content, 'c.txt');
    expect(errorBody(res)).toMatchObject({ status: 500, error: 'internal_error', message: 'File can not be saved, try it later' });
    expect(rows().map((r) => r.original_filename)).toEqual(['w.txt']);
    expect(filesUnder(join(store(), 'tmp'))).toEqual([]);
  });
});
