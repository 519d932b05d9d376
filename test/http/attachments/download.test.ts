import { createHash, randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadPath, rawMultipart, uploadId, uploadPath } from '../../support/attachments.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { type TestServer, errorBody, startTestServer } from '../../support/server.js';

/** Demo messages (fixtures): order 2000009000001 between the demo seller and buyer. */
const messages = {
  /** seller -> buyer, clean */
  sellerClean: '1a1b2c3d4e5f40718293a4b5c6d7e8f9',
  /** buyer -> seller, clean */
  buyerClean: '0a1b2c3d4e5f40718293a4b5c6d7e8f9',
  /** buyer -> seller, rejected by moderation */
  buyerRejected: '2a1b2c3d4e5f40718293a4b5c6d7e8f9',
};

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** Raw bytes of a download (the JSON client would decode text). */
async function fetchBytes(token: string | null, id: string, site: string | null = 'MLA') {
  const res = await fetch(server.url + downloadPath(id, site), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Decodes the `filename*` parameter of a Content-Disposition value (RFC 5987). */
function extFilename(header: string): string {
  const m = /filename\*=UTF-8''([^;\s]+)/.exec(header);
  if (!m) throw new Error(`no filename* in ${header}`);
  return decodeURIComponent(m[1]!);
}

describe('GET /messages/attachments/{id} (SPEC 4.13): the uploader', () => {
  it('streams the exact bytes with the stored media type, Content-Length, nosniff and a download disposition', async () => {
    const bytes = randomBytes(100 * 1024);
    bytes.set([0x25, 0x50, 0x44, 0x46, 0x2d], 0); // "%PDF-"
    const id = await uploadId(server, demo.seller.token, bytes, 'Remito 0001.pdf', 'application/pdf');
    const res = await fetchBytes(demo.seller.token, id);
    expect(res.status).toBe(200);
    expect(createHash('sha256').update(res.bytes).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Remito 0001.pdf"; filename*=UTF-8''Remito%200001.pdf`);
  });

  it('HEAD answers the headers of the download, its length included, without a body; and refuses as GET does', async () => {
    const bytes = randomBytes(300 * 1024);
    bytes.set([0x25, 0x50, 0x44, 0x46, 0x2d], 0);
    const id = await uploadId(server, demo.seller.token, bytes, 'big.pdf', 'application/pdf');
    const head = await fetch(server.url + downloadPath(id), { method: 'HEAD', headers: { authorization: `Bearer ${demo.seller.token}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(head.headers.get('content-type')).toBe('application/pdf');
    expect(head.headers.get('content-disposition')).toContain('filename="big.pdf"');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const stranger = await fetch(server.url + downloadPath(id), { method: 'HEAD', headers: { authorization: `Bearer ${demo.other.token}` } });
    expect(stranger.status).toBe(403);
    const missing = await fetch(server.url + downloadPath('0'.repeat(32)), { method: 'HEAD', headers: { authorization: `Bearer ${demo.seller.token}` } });
    expect(missing.status).toBe(404);
    // The connection stays usable: the GET after it gets every byte.
    expect((await fetchBytes(demo.seller.token, id)).bytes.length).toBe(bytes.length);
  });

  it('answers a hostile name with a quoted ASCII fallback that cannot break out, and the exact name in filename*', async () => {
    const { body, contentType } = rawMultipart([
      { disposition: 'form-data; name="file"; filename="\\"; rm -rf.pdf"', type: 'application/pdf', body: '%PDF-1.4' },
    ]);
    const up = await server.as(demo.seller.token).raw('POST', uploadPath(), { raw: body, headers: { 'content-type': contentType } });
    expect(up.status).toBe(200);
    const cd = (await fetchBytes(demo.seller.token, up.body.id)).headers.get('content-disposition')!;
    expect(cd).toBe(`attachment; filename="_; rm -rf.pdf"; filename*=UTF-8''%22%3B%20rm%20-rf.pdf`);
    expect(extFilename(cd)).toBe('"; rm -rf.pdf');
    // Exactly two parameters after the type: the quote did not open a third one.
    expect(cd.match(/filename\*?=/g)).toHaveLength(2);
  });

  it('answers a non-ASCII name with an accent-free fallback and the UTF-8 name (RFC 6266/5987)', async () => {
    const id = await uploadId(server, demo.seller.token, '%PDF-1.4', 'café ñ.pdf', 'application/pdf');
    const cd = (await fetchBytes(demo.seller.token, id)).headers.get('content-disposition')!;
    expect(cd).toBe(`attachment; filename="cafe n.pdf"; filename*=UTF-8''caf%C3%A9%20%C3%B1.pdf`);
    expect(extFilename(cd)).toBe('café ñ.pdf');
    const id2 = await uploadId(server, demo.seller.token, 'x', "日本 (1)*'%.txt", 'text/plain');
    const cd2 = (await fetchBytes(demo.seller.token, id2)).headers.get('content-disposition')!;
    expect(cd2).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!#$&+\-.^_`|~]+$/);
    expect(cd2).not.toMatch(/filename="[^"]*%/);
    expect(extFilename(cd2)).toBe("日本 (1)*'%.txt");
  });
});

describe('GET /messages/attachments/{id}: errors and access control', () => {
  it('401 without a token, 400 without or with a malformed site_id', async () => {
    const id = await uploadId(server, demo.seller.token, 'x', 'a.txt');
    expect(errorBody(await server.as(null).get(downloadPath(id)))).toMatchObject({ status: 401, message: 'Access token is required' });
    expect(errorBody(await server.as(demo.seller.token).get(downloadPath(id, null)))).toMatchObject({
      status: 400,
      message: "The queryparam 'site_id' is required",
    });
    expect(errorBody(await server.as(demo.seller.token).get(downloadPath(id, 'mla'))).status).toBe(400);
  });

  it('404 for an unknown id, a malformed one, or one uploaded on another site', async () => {
    const seller = server.as(demo.seller.token);
    expect(errorBody(await seller.get(downloadPath('0123456789abcdef0123456789abcdef.pdf')))).toEqual({
      status: 404,
      error: 'not_found',
      message: 'The attachment with id: 0123456789abcdef0123456789abcdef.pdf was not found',
      cause: [],
    });
    expect(errorBody(await seller.get(downloadPath('..%2F..%2Fetc%2Fpasswd'))).status).toBe(404);
    const id = await uploadId(server, demo.seller.token, 'x', 'a.txt');
    expect(errorBody(await seller.get(downloadPath(id, 'MLB'))).status).toBe(404);
  });

  it('an upload not attached to a message is readable by its uploader only', async () => {
    const id = await uploadId(server, demo.seller.token, 'draft', 'draft.txt', 'text/plain');
    expect((await fetchBytes(demo.seller.token, id)).status).toBe(200);
    for (const who of [demo.buyer, demo.other]) {
      const res = await server.as(who.token).get(downloadPath(id));
      expect(errorBody(res)).toEqual({ status: 403, error: 'forbidden', message: `Access denied for user ${who.id} to attachment ${id}`, cause: [] });
    }
  });

  it('once attached to a delivered message, both parties of the order may read it; anybody else 403', async () => {
    const id = await uploadId(server, demo.seller.token, 'factura', 'factura.txt', 'text/plain');
    server.service.attachments.attach(messages.sellerClean, [id]);
    expect(new TextDecoder().decode((await fetchBytes(demo.buyer.token, id)).bytes)).toBe('factura');
    expect((await fetchBytes(demo.seller.token, id)).status).toBe(200);
    expect(errorBody(await server.as(demo.other.token).get(downloadPath(id)))).toMatchObject({ status: 403, error: 'forbidden' });
    expect(errorBody(await server.as(demo.brand.token).get(downloadPath(id))).status).toBe(403);
  });

  it('a file of a rejected or pending message stays with its sender', async () => {
    const rejected = await uploadId(server, demo.buyer.token, 'datos', 'datos.txt', 'text/plain');
    server.service.attachments.attach(messages.buyerRejected, [rejected]);
    expect(errorBody(await server.as(demo.seller.token).get(downloadPath(rejected))).status).toBe(403);
    expect((await fetchBytes(demo.buyer.token, rejected)).status).toBe(200);

    const pending = await uploadId(server, demo.buyer.token, 'foto', 'foto.txt', 'text/plain');
    server.service.attachments.attach(messages.buyerClean, [pending]);
    expect((await fetchBytes(demo.seller.token, pending)).status).toBe(200);
    server.db.prepare("UPDATE messages SET moderation_status = 'pending' WHERE id = ?").run(messages.buyerClean);
    expect(errorBody(await server.as(demo.seller.token).get(downloadPath(pending))).status).toBe(403);
  });

  it('500 "File can not be saved, try it later" when the stored file is missing', async () => {
    const id = await uploadId(server, demo.seller.token, 'soon gone', 'gone.txt');
    const { sha256 } = server.db.prepare('SELECT sha256 FROM attachments WHERE id = ?').get(id) as { sha256: string };
    unlinkSync(join(server.dir, 'attachments', sha256.slice(0, 2), sha256.slice(2, 4), sha256));
    expect(errorBody(await server.as(demo.seller.token).get(downloadPath(id)))).toEqual({
      status: 500,
      error: 'internal_error',
      message: 'File can not be saved, try it later',
      cause: [],
    });
  });

  it('500 for attachment metadata seeded from fixtures without bytes; the metadata is listed', async () => {
    await server.close();
    const fixtures = demoFixtures();
    const attachment = {
      filename: 'fedcba9876543210fedcba9876543210.jpg',
      original_filename: 'foto termo.jpg',
      type: 'image/jpeg',
      size: 2048,
      potential_security_threat: false,
      creation_date: '2026-11-18T13:05:00Z',
    };
    fixtures.messages!.find((m) => m.id === messages.buyerClean)!.attachments = [attachment];
    server = await startTestServer(fixtures);
    expect(server.service.attachments.forMessages([messages.buyerClean]).get(messages.buyerClean)).toEqual([
      { ...attachment, creation_date: '2026-11-18T13:05:00.000Z' },
    ]);
    const res = await server.as(demo.seller.token).get(downloadPath(attachment.filename));
    expect(errorBody(res)).toMatchObject({ status: 500, message: 'File can not be saved, try it later' });
  });
});
