import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
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
  async keep(fileId: string): Promise<StagedFile | undefined> {
    const f = this.files.get(fileId);
    if (!f) return undefined;
    if (f.owned && f.path !== this.keptPath(fileId)) {
      await rename(f.path, this.keptPath(fileId));
      f.path = this.keptPath(fileId);
    }
    return f;
  }

  /** A draft's file after a restart: known again by its id while its bytes are there; null when they are not. */
  async adopt(kept: { fileId: string; name: string; type: string | null; size: number; path: string | null }): Promise<StagedFileView | null> {
    if (!/^[0-9a-f]{32}$/.test(kept.fileId)) return null;
    const known = this.files.get(kept.fileId);
    if (known) return view(known);
    const path = kept.path ?? this.keptPath(kept.fileId);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const f: StagedFile = { fileId: kept.fileId, name: kept.name, size: info.size, type: kept.type, path, owned: kept.path === null };
    this.files.set(f.fileId, f);
    return view(f);
  }

  private keptPath(fileId: string): string {
    return join(this.keptDir, fileId);
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

const view = (f: StagedFile): StagedFileView => ({ fileId: f.fileId, name: f.name, size: f.size, type: f.type });
