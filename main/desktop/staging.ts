import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { StagedFileView } from '../../common/contract/contract.js';
import { privateDir } from '../db/private-files.js';
import { desktopErrors } from './errors.js';

export interface StagedFile extends StagedFileView {
  /** Where the bytes are: the staging folder (owned) or a file the person picked in a dialog. */
  path: string;
  owned: boolean;
}

/**
 * Files for a message about to be sent. The renderer never names a path: it hands bytes (a drop,
 * a file input), or asks the main process to open a dialog; either way it gets an opaque id back.
 * Bytes are written to `<dataDir>/staging/`, which is emptied at every start, except `kept/`:
 * the files attached to a draft (issue 27), which the draft's rows name (main/desktop/drafts.ts).
 * One staging folder serves every profile of the data folder, but each profile's drafts are in its
 * own database: kept files are under `kept/<owner>/` (main/desktop/drafts.ts keptOwner), so a
 * profile removes the files of its own folder that none of its drafts names, and never another's.
 */
export class Staging {
  private readonly files = new Map<string, StagedFile>();
  private readonly keptDir: string;

  constructor(readonly dir: string) {
    privateDir(dir);
    this.keptDir = join(dir, KEPT);
    for (const name of readdirSync(dir)) if (name !== KEPT) rmSync(join(dir, name), { force: true, recursive: true });
    privateDir(this.keptDir);
  }

  /**
   * Keeps a staged file for a draft: its bytes move to `kept/`, which a start does not empty (a
   * picked file stays where the person has it). Undefined when the file is gone (removed, sent).
   */
  async keep(fileId: string, owner: string): Promise<StagedFile | undefined> {
    const f = this.files.get(fileId);
    if (!f) return undefined;
    const kept = this.keptPath(owner, fileId);
    if (f.owned && f.path !== kept) {
      privateDir(join(this.keptDir, owner));
      await rename(f.path, kept);
      f.path = kept;
    }
    return f;
  }

  /** A draft's file after a restart: known again by its id while its bytes are there; null when they are not. */
  async adopt(kept: { fileId: string; name: string; type: string | null; size: number; path: string | null }, owner: string): Promise<StagedFileView | null> {
    if (!FILE_ID.test(kept.fileId)) return null;
    const known = this.files.get(kept.fileId);
    if (known) return view(known);
    const path = kept.path ?? this.keptPath(owner, kept.fileId);
    // Kept before files had an owner's folder (right under kept/): moved into this profile's, whose draft names it.
    const legacy = join(this.keptDir, kept.fileId);
    if (kept.path === null && existsSync(legacy) && !existsSync(path)) {
      privateDir(join(this.keptDir, owner));
      await rename(legacy, path);
    }
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const f: StagedFile = { fileId: kept.fileId, name: kept.name, size: info.size, type: kept.type, path, owned: kept.path === null };
    this.files.set(f.fileId, f);
    return view(f);
  }

  private keptPath(owner: string, fileId: string): string {
    return join(this.keptDir, owner, fileId);
  }

  /**
   * Removes the files of `owner`'s kept folder that none of its drafts names (`referenced`): a
   * draft sent or erased whose bytes outlived it (a crash between the two, a removal that failed).
   * A file this running app handed out and nobody discarded is spared: a composer may still attach
   * it (a draft's save moves a file here before it writes the row naming it). Synchronous, so no
   * save runs in between. Answers the ids removed.
   */
  sweep(owner: string, referenced: ReadonlySet<string>): string[] {
    const dir = join(this.keptDir, owner);
    if (!existsSync(dir)) return [];
    const removed: string[] = [];
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (referenced.has(name) || this.files.get(name)?.path === path) continue;
      rmSync(path, { force: true, recursive: true });
      removed.push(name);
    }
    return removed;
  }

  async stageBytes(name: string, type: string | undefined, bytes: Uint8Array): Promise<StagedFileView> {
    const fileId = randomBytes(16).toString('hex');
    const path = join(this.dir, fileId);
    await writeFile(path, bytes, { mode: 0o600 });
    const f: StagedFile = { fileId, name, size: bytes.byteLength, type: type && type !== '' ? type : null, path, owned: true };
    this.files.set(fileId, f);
    return view(f);
  }

  /** A file chosen in the main process's open dialog; read when the message is sent. */
  async stagePath(path: string): Promise<StagedFileView> {
    const info = await stat(path);
    const fileId = randomBytes(16).toString('hex');
    const f: StagedFile = { fileId, name: basename(path), size: info.size, type: null, path, owned: false };
    this.files.set(fileId, f);
    return view(f);
  }

  get(fileId: string): StagedFile {
    const f = this.files.get(fileId);
    if (!f) throw desktopErrors.fileNotFound(fileId);
    return f;
  }

  async discard(fileId: string): Promise<void> {
    const f = this.files.get(fileId);
    if (!f) throw desktopErrors.fileNotFound(fileId);
    this.files.delete(fileId);
    if (f.owned) await unlink(f.path).catch(() => undefined);
  }
}

const KEPT = 'kept';
const FILE_ID = /^[0-9a-f]{32}$/;

const view = (f: StagedFile): StagedFileView => ({ fileId: f.fileId, name: f.name, size: f.size, type: f.type });
