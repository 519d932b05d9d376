import { basename } from 'node:path';
import type { DraftView } from '../../common/views.js';
import type { Db } from '../db/open.js';
import { type DraftsRepo, draftsRepo } from '../db/repos/drafts.js';
import type { Profile } from './profile.js';
import type { StagedFile, Staging } from './staging.js';

/**
 * The folder of the staging's kept files (staging/kept/<owner>/) that belongs to a profile: the
 * local data's, or a replica's by its own folder's name (remote/<host>-<seller>), unique per data folder.
 */
export const keptOwner = (p: Pick<Profile, 'kind' | 'dir'>): string => (p.kind === 'local' ? 'local' : basename(p.dir));

/**
 * Drafts (issue 15 §2): what the seller was writing in each conversation, in the profile's own
 * database (a pack id means something only in its marketplace), so they survive a restart and a
 * switch of profile keeps each profile's drafts apart. With the text, the files attached to it
 * (issue 27): their rows here, their bytes kept by the staging folder (main/desktop/staging.ts).
 */
export class Drafts {
  private readonly repo: DraftsRepo;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = draftsRepo(db);
  }

  /** Every draft with its files; a file whose bytes are gone (deleted by hand) is left out. */
  async list(staging: Pick<Staging, 'adopt'>, owner: string): Promise<DraftView[]> {
    const files = new Map<number, DraftView['files']>();
    for (const r of this.repo.files()) {
      const f = await staging.adopt({ fileId: r.file_id, name: r.name, type: r.type, size: r.size, path: r.path }, owner);
      if (f) files.set(r.pack_key, [...(files.get(r.pack_key) ?? []), f]);
    }
    const drafts = this.repo.all().map((r): DraftView => ({ packId: r.pack_key, text: r.text, updatedAt: r.updated_at, files: files.get(r.pack_key) ?? [] }));
    return drafts.filter((d) => d.text.trim() !== '' || (d.files?.length ?? 0) > 0);
  }

  /** Removes the owner's kept files that no draft of this database names (at start, and after a draft is sent or erased). */
  sweep(staging: Pick<Staging, 'sweep'>, owner: string): string[] {
    return staging.sweep(owner, new Set(this.repo.files().flatMap((r) => (r.path === null ? [r.file_id] : []))));
  }

  /** A text of only whitespace and no files forgets the draft (sent, or erased). */
  save(packId: number, text: string, files: readonly StagedFile[] = []): boolean {
    this.repo.setFiles(
      packId,
      files.map((f, position) => ({ file_id: f.fileId, pack_key: packId, position, name: f.name, type: f.type, size: f.size, path: f.owned ? null : f.path })),
    );
    if (text.trim() === '' && files.length === 0) {
      this.repo.remove(packId);
      return false;
    }
    this.repo.put({ pack_key: packId, text, updated_at: this.now() });
    return true;
  }
}

const byDb = new WeakMap<Db, Drafts>();

/** The drafts of a profile's database (one instance per open database). */
export function draftsOf(db: Db): Drafts {
  let d = byDb.get(db);
  if (!d) {
    d = new Drafts(db);
    byDb.set(db, d);
  }
  return d;
}
