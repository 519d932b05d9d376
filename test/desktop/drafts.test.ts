import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/db/open.js';
import { DB_FILE } from '../../main/desktop/profile.js';
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
    expect(existsSync(join(dir, 'staging', 'kept', 'local', guia.fileId))).toBe(false);
    value(await second.core.api.messages.saveDraft({ packId: CANASTA, text: '' }));
    expect(value(await second.core.api.messages.drafts()).map((d) => d.packId)).toEqual([YERBA]);
    expect(readdirSync(join(dir, 'staging', 'kept', 'local'))).toEqual([solo.fileId]);
  });

  it('leaves out a kept file whose bytes are gone, and forgets nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-draft-files-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const first = await openCore({ dataDir: dir });
    const f = value(await first.core.api.messages.stageFile({ name: 'guía.pdf', type: 'application/pdf', bytes: pdf }));
    value(await first.core.api.messages.saveDraft({ packId: CANASTA, text: 'Hola', fileIds: [f.fileId] }));
    await first.core.close();
    rmSync(join(dir, 'staging', 'kept', 'local', f.fileId));

    const second = await openCore({ dataDir: dir });
    closers.push(() => second.core.close());
    expect(value(await second.core.api.messages.drafts()).map((d) => [d.packId, d.text, d.files])).toEqual([[CANASTA, 'Hola', []]]);
  });

  /** Forgets a draft's rows behind the core's back, as a crash between the row and the bytes would. */
  function forgetDraftRows(dir: string, packId: number): void {
    const db = openDatabase(join(dir, DB_FILE));
    try {
      db.prepare('DELETE FROM message_draft_files WHERE pack_key = ?').run(packId);
      db.prepare('DELETE FROM message_drafts WHERE pack_key = ?').run(packId);
    } finally {
      db.close();
    }
  }
  const kept = (dir: string, owner = 'local') =>
    existsSync(join(dir, 'staging', 'kept', owner)) ? readdirSync(join(dir, 'staging', 'kept', owner)).sort() : [];

  it("removes at start the kept files no draft of the profile names, and never another profile's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-draft-files-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const first = await openCore({ dataDir: dir });
    const api = first.core.api;
    const guia = value(await api.messages.stageFile({ name: 'guía.pdf', type: 'application/pdf', bytes: pdf }));
    const remito = value(await api.messages.stageFile({ name: 'remito.pdf', type: 'application/pdf', bytes: pdf }));
    value(await api.messages.saveDraft({ packId: CANASTA, text: 'Te mando la guía', fileIds: [guia.fileId] }));
    value(await api.messages.saveDraft({ packId: YERBA, text: 'Y el remito', fileIds: [remito.fileId] }));
    await first.core.close();
    expect(kept(dir)).toEqual([guia.fileId, remito.fileId].sort());
    forgetDraftRows(dir, YERBA);
    // Another profile of this data folder (a replica's folder under remote/) keeps its own drafts' files in its own folder.
    const other = 'market.example_8443-1780493261';
    const theirs = 'ab'.repeat(16);
    mkdirSync(join(dir, 'staging', 'kept', other), { recursive: true });
    writeFileSync(join(dir, 'staging', 'kept', other, theirs), pdf);

    const second = await openCore({ dataDir: dir });
    closers.push(() => second.core.close());
    expect(kept(dir)).toEqual([guia.fileId]);
    expect(kept(dir, other)).toEqual([theirs]);
    expect(value(await second.core.api.messages.drafts()).map((d) => [d.packId, d.files?.map((f) => f.fileId)])).toEqual([[CANASTA, [guia.fileId]]]);
  });

  it('removes them when a draft is sent or erased, sparing a file a composer still holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-draft-files-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const { core } = await openCore({ dataDir: dir });
    closers.push(() => core.close());
    const api = core.api;
    const guia = value(await api.messages.stageFile({ name: 'guía.pdf', type: 'application/pdf', bytes: pdf }));
    const foto = value(await api.messages.stageFile({ name: 'foto.png', type: 'image/png', bytes: new Uint8Array([137, 80, 78, 71]) }));
    value(await api.messages.saveDraft({ packId: CANASTA, text: 'Te mando la guía', fileIds: [guia.fileId] }));
    value(await api.messages.saveDraft({ packId: YERBA, text: 'Una foto', fileIds: [foto.fileId] }));
    // Bytes no draft names, left by an earlier run that stopped between a draft's rows and its files.
    const left = 'cd'.repeat(16);
    writeFileSync(join(dir, 'staging', 'kept', 'local', left), pdf);

    // Erased while the composer still holds the photo: its row is gone, the file stays until it is removed.
    value(await api.messages.saveDraft({ packId: YERBA, text: '' }));
    expect(kept(dir)).toEqual([foto.fileId, guia.fileId].sort());
    value(await api.messages.discardFile({ fileId: foto.fileId }));
    expect(kept(dir)).toEqual([guia.fileId]);

    writeFileSync(join(dir, 'staging', 'kept', 'local', left), pdf);
    const pending = value(await api.messages.stageFile({ name: 'remito.pdf', type: 'application/pdf', bytes: pdf }));
    value(await api.messages.saveDraft({ packId: YERBA, text: 'El remito', fileIds: [pending.fileId] }));
    value(await api.messages.send({ packId: CANASTA, text: 'Te mando la guía', fileIds: [guia.fileId] }));
    expect(kept(dir)).toEqual([pending.fileId]);
  });

  it('adopts a file kept before profiles had their own folder into the profile whose draft names it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-draft-files-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const first = await openCore({ dataDir: dir });
    const f = value(await first.core.api.messages.stageFile({ name: 'guía.pdf', type: 'application/pdf', bytes: pdf }));
    value(await first.core.api.messages.saveDraft({ packId: CANASTA, text: 'Hola', fileIds: [f.fileId] }));
    await first.core.close();
    // Where the build before this one kept it.
    renameSync(join(dir, 'staging', 'kept', 'local', f.fileId), join(dir, 'staging', 'kept', f.fileId));

    const second = await openCore({ dataDir: dir });
    closers.push(() => second.core.close());
    expect(value(await second.core.api.messages.drafts()).map((d) => d.files?.map((x) => x.fileId))).toEqual([[f.fileId]]);
    expect(kept(dir)).toEqual([f.fileId]);
    expect(existsSync(join(dir, 'staging', 'kept', f.fileId))).toBe(false);
  });
});
