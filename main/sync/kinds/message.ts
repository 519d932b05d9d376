import { claimedFields } from '../../db/repos/sync.js';
import type { SyncRepo } from '../../db/repos/sync.js';
import { type MessagePusher, readPayload } from '../message-push.js';
import type { OutboxKindHandler } from './types.js';

/**
 * Message entries: an outgoing message with its files. Lane: the conversation (`pack:<id>`), so
 * a conversation's messages keep their order; the payload is JSON parsed with `messagePayload`
 * (main/sync/message-push.ts) whenever it is read back; pushing uploads the files, then sends.
 */
export { packLane } from './lanes.js';

export function messageKind(repo: SyncRepo, pusher: MessagePusher): OutboxKindHandler {
  return {
    kind: 'message',
    claim(id, now) {
      const row = repo.claim(id, now);
      return row ? { row, before: claimedFields(row), send: () => pusher.push(row) } : null;
    },
  };
}

/** The parts of a queued message's payload the screens show; null when it cannot be read back. */
export function messageView(payload: string | null): { packId: number; text: string; files: string[] } | null {
  const m = readPayload(payload);
  if (!m.ok) return null;
  return { packId: m.value.packId, text: m.value.text, files: m.value.attachments.map((a) => a.name) };
}

/**
 * Messages whose request may have reached the marketplace (waiting to be resent, or of unknown
 * outcome) that a pull found there: delivered, so their entries are done (model.ts). Each
 * marketplace message settles one entry at most. Runs in the caller's transaction; returns the
 * lanes that changed.
 */
export function settleFoundMessages(repo: SyncRepo, now: number): string[] {
  const used = new Set<string>();
  const settled = new Set<number>();
  const lanes = new Set<string>();
  for (const c of repo.sentCandidates()) {
    if (settled.has(c.entry_id) || used.has(c.message_id) || c.files !== c.wanted) continue;
    const row = repo.byId(c.entry_id);
    if (!row || (row.state !== 'pending' && row.state !== 'failed')) continue;
    repo.markDone(c.entry_id, { result_version: null, result: c.message_id, status: 200 }, now);
    settled.add(c.entry_id);
    used.add(c.message_id);
    lanes.add(row.lane);
  }
  return [...lanes];
}
