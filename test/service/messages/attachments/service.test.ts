import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../../main/db/open.js';
import { loadFixtures } from '../../../../main/fixtures/load.js';
import { ServiceError } from '../../../../main/service/errors.js';
import { type Service, createService } from '../../../../main/service/index.js';
import type { Principal } from '../../../../main/service/auth/auth.js';
import type { UploadPart } from '../../../../main/service/messages/attachments/service.js';
import { demo, demoFixtures } from '../../../support/fixtures.js';

const clock = {
  t: Date.parse('2026-11-20T12:00:00.000Z'),
  now() {
    return this.t;
  },
};
const seller: Principal = { userId: demo.seller.id, applicationId: demo.app };
const buyer: Principal = { userId: demo.buyer.id, applicationId: demo.app };
const sellerClean = '1a1b2c3d4e5f40718293a4b5c6d7e8f9';
const buyerClean = '0a1b2c3d4e5f40718293a4b5c6d7e8f9';

let dir: string;
let db: Db;
let service: Service;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stockroom-attachments-'));
  db = openDatabase(join(dir, 'marketplace.db'));
  loadFixtures(db, demoFixtures());
  service = createService(db, { clock, attachmentsDir: join(dir, 'files') });
});
afterEach(async () => {
  await service.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function* oneFile(content: string | Buffer, filename: string, mimetype = 'application/octet-stream'): AsyncGenerator<UploadPart> {
  yield { type: 'file', fieldname: 'file', filename, mimetype, file: Readable.from([Buffer.from(content)]) };
}
const upload = async (principal: Principal, content: string | Buffer, name: string, type?: string) =>
  (await service.attachments.upload({ principal, siteId: 'MLA' }, oneFile(content, name, type))).id;

/** The ServiceError a call throws, for asserting status, code and message together. */
function thrown(fn: () => unknown): { status: number; error: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof ServiceError) return { status: e.status, error: e.error, message: e.message };
    throw e;
  }
  throw new Error('expected a ServiceError');
}

describe('requireAttachable: the attachments field of a send', () => {
  it('undefined and null are no attachments', () => {
    expect(service.attachments.requireAttachable(seller, undefined, 'MLA')).toEqual([]);
    expect(service.attachments.requireAttachable(seller, null, 'MLA')).toEqual([]);
    expect(service.attachments.requireAttachable(seller, [], 'MLA')).toEqual([]);
  });

  it('400 unless an array of strings', () => {
    for (const bad of ['abc', 5, { id: 'x' }, [1], ['a', null]]) {
      expect(thrown(() => service.attachments.requireAttachable(seller, bad, 'MLA'))).toEqual({
        status: 400,
        error: 'bad_request',
        message: "The field 'attachments' must be an array of attachment ids",
      });
    }
  });

  it('400 "The message exceeds the allowed number of attachments: 25" for 26', () => {
    const ids = Array.from({ length: 26 }, (_, i) => `id${i}`);
    expect(thrown(() => service.attachments.requireAttachable(seller, ids, 'MLA'))).toEqual({
      status: 400,
      error: 'bad_request',
      message: 'The message exceeds the allowed number of attachments: 25',
    });
  });

  it('accepts 25 own uploads, keeping the order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await upload(seller, `file ${i}`, `f${i}.txt`));
    expect(service.attachments.requireAttachable(seller, ids, 'MLA')).toEqual(ids);
  });

  it('400 for a duplicated id', async () => {
    const id = await upload(seller, 'x', 'x.txt');
    expect(thrown(() => service.attachments.requireAttachable(seller, [id, id], 'MLA'))).toMatchObject({
      status: 400,
      message: `Attachment sent more than once: ${id}`,
    });
  });

  it("422 invalid_attachment for an unknown id, another user's upload, or one already attached", async () => {
    const mine = await upload(seller, 'mine', 'mine.txt');
    const theirs = await upload(buyer, 'theirs', 'theirs.txt');
    const used = await upload(seller, 'used', 'used.txt');
    service.attachments.attach(sellerClean, [used]);
    for (const ids of [['0123456789abcdef0123456789abcdef'], [mine, theirs], [used], ['x'.repeat(5000)]]) {
      expect(thrown(() => service.attachments.requireAttachable(seller, ids, 'MLA'))).toEqual({
        status: 422,
        error: 'invalid_attachment',
        message: 'Attachment key is invalid or not found',
      });
    }
    expect(service.attachments.requireAttachable(seller, [mine], 'MLA')).toEqual([mine]);
  });
});

describe('sites and names', () => {
  it("an upload's site_id must be the uploader's site", () => {
    expect(thrown(() => service.attachments.beginUpload(seller, { site_id: 'MLB', tag: 'post_sale' }, 'multipart/form-data; boundary=x', '100'))).toEqual({
      status: 400,
      error: 'bad_request',
      message: "The queryparam 'site_id' must be the site of the user: MLA",
    });
    expect(service.attachments.beginUpload(seller, { site_id: 'MLA', tag: 'post_sale' }, 'multipart/form-data; boundary=x', '100')).toMatchObject({
      siteId: 'MLA',
    });
  });

  it('a file is attached only in a conversation of the site it was uploaded for', async () => {
    const mine = await upload(seller, 'remito', 'remito.txt');
    expect(thrown(() => service.attachments.requireAttachable(seller, [mine], 'MLB'))).toMatchObject({
      status: 400,
      message: `The attachment ${mine} was uploaded for site MLA; this conversation is on site MLB`,
    });
  });

  it.each([
    ['factura\u202Efdp.exe', 'File name cannot include invisible or direction-changing characters'],
    ['nota\u200B.txt', 'File name cannot include invisible or direction-changing characters'],
    ['\uFEFFremito.txt', 'File name cannot include invisible or direction-changing characters'],
    ['..', 'File name cannot be only dots'],
    ['.', 'File name cannot be only dots'],
  ])('refuses the file name %j', async (name, message) => {
    await expect(upload(seller, 'x', JSON.parse(`"${name}"`) as string)).rejects.toMatchObject({ status: 400, message });
  });
});

describe('attach and forMessages', () => {
  it('links in the given order and lists SPEC 2.8 objects per message', async () => {
    const a = await upload(seller, '%PDF-1.4 a', 'Factura A.pdf', 'application/pdf');
    clock.t += 1000;
    const b = await upload(seller, 'hola', 'nota.txt', 'text/plain');
    const c = await upload(buyer, 'chau', 'respuesta.txt', 'text/plain');
    db.transaction(() => {
      service.attachments.attach(sellerClean, [b, a]);
      service.attachments.attach(buyerClean, [c]);
    })();
    const map = service.attachments.forMessages([sellerClean, buyerClean, 'no-such-message']);
    expect([...map.keys()].sort()).toEqual([buyerClean, sellerClean].sort());
    expect(map.get(sellerClean)).toEqual([
      { filename: b, original_filename: 'nota.txt', type: 'text/plain', size: 4, potential_security_threat: false, creation_date: '2026-11-20T12:00:01.000Z' },
      {
        filename: a,
        original_filename: 'Factura A.pdf',
        type: 'application/pdf',
        size: 10,
        potential_security_threat: false,
        creation_date: '2026-11-20T12:00:00.000Z',
      },
    ]);
    expect(map.get(buyerClean)).toHaveLength(1);
    expect(service.attachments.forMessages([]).size).toBe(0);
  });

  it('refuses to attach an upload twice (the send transaction rolls back)', async () => {
    const a = await upload(seller, 'once', 'once.txt');
    service.attachments.attach(sellerClean, [a]);
    expect(thrown(() => db.transaction(() => service.attachments.attach(buyerClean, [a]))())).toMatchObject({ status: 422 });
    expect(service.attachments.forMessages([buyerClean]).size).toBe(0);
  });
});

describe('inspect: for moderation of a pending message', () => {
  it('returns the text of text files and no threat for harmless files', async () => {
    const t = await upload(seller, 'Escribime a mi mail', 'nota.txt', 'text/plain');
    const csv = await upload(seller, 'sku;cantidad\nA;1\n', 'lista.csv', 'text/csv');
    const pdf = await upload(seller, '%PDF-1.4', 'f.pdf', 'application/pdf');
    service.attachments.attach(sellerClean, [t, pdf, csv]);
    expect(await service.attachments.inspect(sellerClean)).toEqual({ threat: false, text: 'Escribime a mi mail\n\nsku;cantidad\nA;1\n' });
  });

  it('reads at most the first 64 KB of a text file and never cuts a character in half', async () => {
    const big = `${'a'.repeat(64 * 1024 - 1)}ñ${'b'.repeat(1000)}`;
    const id = await upload(seller, big, 'big.txt', 'text/plain');
    service.attachments.attach(sellerClean, [id]);
    const { text } = await service.attachments.inspect(sellerClean);
    expect(text).toBe('a'.repeat(64 * 1024 - 1));
  });

  it('decodes non-UTF-8 text as ISO-8859-1', async () => {
    const id = await upload(seller, Buffer.from('canción', 'latin1'), 'latin.txt', 'text/plain');
    service.attachments.attach(sellerClean, [id]);
    expect((await service.attachments.inspect(sellerClean)).text).toBe('canción');
  });

  it('reports a threat, and saves a threat found by the re-check', async () => {
    const script = await upload(seller, '#!/bin/sh\necho hi\n', 'run.txt', 'text/plain');
    service.attachments.attach(sellerClean, [script]);
    expect(await service.attachments.inspect(sellerClean)).toEqual({ threat: true, text: '#!/bin/sh\necho hi\n' });

    // A row uploaded before a rule existed: the re-check flags it now.
    const old = await upload(buyer, 'MZ\u0090\u0000 pretending', 'doc.txt', 'text/plain');
    db.prepare('UPDATE attachments SET potential_security_threat = 0 WHERE id = ?').run(old);
    service.attachments.attach(buyerClean, [old]);
    expect((await service.attachments.inspect(buyerClean)).threat).toBe(true);
    expect(service.attachments.forMessages([buyerClean]).get(buyerClean)![0]!.potential_security_threat).toBe(true);
  });

  it('a message without attachments, or whose files are gone, inspects as nothing', async () => {
    expect(await service.attachments.inspect(buyerClean)).toEqual({ threat: false, text: '' });
    const id = await upload(seller, 'gone', 'gone.txt', 'text/plain');
    service.attachments.attach(sellerClean, [id]);
    const { sha256 } = db.prepare('SELECT sha256 FROM attachments WHERE id = ?').get(id) as { sha256: string };
    unlinkSync(join(dir, 'files', sha256.slice(0, 2), sha256.slice(2, 4), sha256));
    expect(await service.attachments.inspect(sellerClean)).toEqual({ threat: false, text: '' });
  });
});
