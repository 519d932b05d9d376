import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCore, value } from './helpers.js';

// The demo data's conversations (test/desktop/inbox-find.test.ts names them).
const CANASTA = 2000009000005;
const YERBA = 2000009000002;

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

const pdf = new Uint8Array([37, 80, 68, 70, 45, 49, 46, 52]);

describe('draft attachments (issue 27)', () => {
  it('keeps the files attached to a draft across a close and reopen of the core, and they send as staged files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-draft-files-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const first = await openCore({ dataDir: dir });
    const api = first.core.api;
    const guia = value(await api.messages.stageFile({ name: 'guía.pdf', type: 'application/pdf', bytes: pdf }));
    const foto = value(await api.messages.stageFile({ name: 'foto.png', type: 'image/png', bytes: new Uint8Array([137, 80, 78, 71]) }));
    const solo = value(await api.messages.stageFile({ name: 'remito.pdf', type: 'application/pdf', bytes: pdf }));
    value(await api.messages.saveDraft({ packId: CANASTA, text: 'Te mando la guía', fileIds: [guia.fileId, foto.fileId] }));
    // A draft of files alone is a draft too; a file removed from the draft is no longer kept with it.
    value(await api.messages.saveDraft({ packId: YERBA, text: '', fileIds: [solo.fileId] }));
    value(await api.messages.discardFile({ fileId: foto.fileId }));
    value(await api.messages.saveDraft({ packId: CANASTA, text: 'Te mando la guía', fileIds: [guia.fileId] }));
    await first.core.close();

    const second = await openCore({ dataDir: dir });
    closers.push(() => second.core.close());
    const drafts = value(await second.core.api.messages.drafts());
    expect(drafts.map((d) => [d.packId, d.text, d.files?.map((f) => [f.fileId, f.name, f.size, f.type])])).toEqual([
      [YERBA, '', [[solo.fileId, 'remito.pdf', pdf.byteLength, 'application/pdf']]],
      [CANASTA, 'Te mando la guía', [[guia.fileId, 'guía.pdf', pdf.byteLength, 'application/pdf']]],
    ]);

    // Sent after the restart with the kept file's id: the message carries it; its bytes leave the kept folder.
    value(await second.core.api.messages.send({ packId: CANASTA, text: 'Te mando la guía', fileIds: [guia.fileId] }));
    const found = value(await second.core.api.messages.conversations({ filter: 'with_attachments' })).conversations.map((c) => c.packId);
    expect(found).toEqual([CANASTA]);
    expect(existsSync(join(dir, 'staging', 'kept', guia.fileId))).toBe(false);
    value(await second.core.api.messages.saveDraft({ packId: CANASTA, text: '' }));
    expect(value(await second.core.api.messages.drafts()).map((d) => d.packId)).toEqual([YERBA]);
    expect(readdirSync(join(dir, 'staging', 'kept'))).toEqual([solo.fileId]);
  });

  it('leaves out a kept file whose bytes are gone, and forgets nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-draft-files-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const first = await openCore({ dataDir: dir });
    const f = value(await first.core.api.messages.stageFile({ name: 'guía.pdf', type: 'application/pdf', bytes: pdf }));
    value(await first.core.api.messages.saveDraft({ packId: CANASTA, text: 'Hola', fileIds: [f.fileId] }));
    await first.core.close();
    rmSync(join(dir, 'staging', 'kept', f.fileId));

    const second = await openCore({ dataDir: dir });
    closers.push(() => second.core.close());
    expect(value(await second.core.api.messages.drafts()).map((d) => [d.packId, d.text, d.files])).toEqual([[CANASTA, 'Hola', []]]);
  });
});
