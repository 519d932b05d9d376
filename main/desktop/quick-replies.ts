import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { QuickReplyView } from '../../common/contract/contract.js';
import { DesktopError } from './errors.js';
import { writeFileAtomic } from './settings.js';

export const QUICK_REPLIES_FILE = 'quick-replies.json';

const stored = z.object({
  version: z.literal(1),
  replies: z.array(z.object({ id: z.string(), title: z.string(), text: z.string() })),
});

/**
 * The seller's quick replies (saved texts the composer can insert): one small JSON file in the
 * data folder, written atomically like the settings. They belong to the person using this copy of
 * the app, not to a marketplace profile, so switching modes keeps them.
 */
export class QuickReplies {
  readonly file: string;
  private replies: QuickReplyView[];

  constructor(dataDir: string) {
    this.file = join(dataDir, QUICK_REPLIES_FILE);
    this.replies = [];
    try {
      const parsed = stored.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      if (parsed.success) this.replies = parsed.data.replies;
      else console.warn(`quick replies: ${this.file} is not valid, starting empty`);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') console.warn(`quick replies: cannot read ${this.file}, starting empty`);
    }
  }

  list(): QuickReplyView[] {
    return this.replies.map((r) => ({ ...r }));
  }

  /** Replaces the whole list (ids must be unique); answers the list as stored. */
  save(replies: readonly QuickReplyView[]): QuickReplyView[] {
    const seen = new Set<string>();
    for (const r of replies) {
      if (seen.has(r.id)) throw new DesktopError('bad_request', `Quick reply id ${r.id} appears more than once`, 400);
      seen.add(r.id);
    }
    const next = replies.map((r) => ({ id: r.id, title: r.title, text: r.text }));
    writeFileAtomic(this.file, `${JSON.stringify({ version: 1, replies: next }, null, 2)}\n`);
    this.replies = next;
    return this.list();
  }
}
