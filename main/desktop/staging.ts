import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { stat, unlink, writeFile } from 'node:fs/promises';
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
 * Bytes are written to `<dataDir>/staging/`, which is emptied at every start.
 */
export class Staging {
  private readonly files = new Map<string, StagedFile>();

  constructor(readonly dir: string) {
    privateDir(dir);
    for (const name of readdirSync(dir)) rmSync(join(dir, name), { force: true, recursive: true });
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

const view = (f: StagedFile): StagedFileView => ({ fileId: f.fileId, name: f.name, size: f.size, type: f.type });
