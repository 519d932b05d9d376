import type { DraftView } from '../../common/views.js';
import type { Db } from '../db/open.js';
import { type DraftsRepo, draftsRepo } from '../db/repos/drafts.js';

/**
 * Drafts (issue 15 §2): what the seller was writing in each conversation, in the profile's own
 * database (a pack id means something only in its marketplace), so they survive a restart and a
 * switch of profile keeps each profile's drafts apart. Only the text: files staged for a draft
 * live in the staging folder, which is emptied at start-up, so they are not kept.
 */
export class Drafts {
  private readonly repo: DraftsRepo;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = draftsRepo(db);
  }

  list(): DraftView[] {
    return this.repo.all().map((r) => ({ packId: r.pack_key, text: r.text, updatedAt: r.updated_at }));
  }

  /** A text of only whitespace forgets the draft (sent, or erased). */
  save(packId: number, text: string): boolean {
    if (text.trim() === '') {
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
