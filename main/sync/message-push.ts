import { openAsBlob } from 'node:fs';
import { FormData } from 'undici';
import { z } from 'zod';
import { MODERATION_REASONS } from '../../common/messages/moderation/index.js';
import type { Writes } from '../db/relaxed-writes.js';
import type { OutboxRow } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import type { FileStore } from '../service/messages/attachments/storage.js';
import { type RemoteClient, classifyStatus } from './client.js';
import { messageAnswer, messagesPage, uploadAnswer } from './remote-answers.js';
import type { Outbox } from './outbox.js';
import { writeMessage } from './mirror-writes.js';
import { type PushOutcome, answerOutcome, retryOutcome } from './stock-push.js';
import type { ModerationWarning } from './validate.js';

/** One attachment of a queued message: its bytes are in the app's own store under `sha256`. */
const queuedAttachment = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  name: z.string().min(1),
  type: z.string().min(1),
  size: z.number().int().positive(),
  /** The remote attachment id once uploaded (4.12), kept so a retry does not upload again. */
  remoteId: z.string().min(1).nullable(),
});
export type QueuedAttachment = z.infer<typeof queuedAttachment>;

/** The `payload` of a message entry, parsed when read back (an older or damaged row fails loudly, never half-parsed). */
export const messagePayload = z.object({
  packId: z.number().int().positive(),
  sellerId: z.number().int().positive(),
  toUserId: z.number().int().positive(),
  siteId: z.string().min(1),
  text: z.string(),
  attachments: z.array(queuedAttachment),
  warnings: z.array(
    z.object({ reason: z.enum(MODERATION_REASONS), rule: z.string(), match: z.string(), index: z.number().int(), message: z.string() }),
  ) satisfies z.ZodType<ModerationWarning[]>,
  /** Bumped when expired uploads must be uploaded again (their keys change with it). */
  uploadRound: z.number().int().nonnegative(),
});
export type MessagePayload = z.infer<typeof messagePayload>;

export type { FileStore };

/**
 * Pushing one message entry: every attachment not yet uploaded goes up first (each with its own
 * idempotency key, `<entry key>.a<n>[.r<round>]`, and its remote id saved in the payload as soon as it is
 * known), then the message is sent with those ids and the entry's key. The sent message goes
 * into the mirror in the same transaction that marks the entry done.
 * A 422 `invalid_attachment` (the uploads expired, 48 h on the remote, while the app was offline)
 * forgets the remote ids so the next attempt uploads again.
 */
export class MessagePusher {
  /**
   * The person takes back a message whose outcome is unknown: the conversation is read for it.
   * Found (and not already another entry's): it was delivered, the entry is done and the message
   * mirrored. Not found: it never reached the marketplace, and is withdrawn.
   */
  private async check(row: OutboxRow, payload: MessagePayload): Promise<PushOutcome> {
    if (row.sent_at === null) return { type: 'withdrawn', commit: () => this.outbox.withdrawChecked(row.id) };
    const path = `/messages/packs/${payload.packId}/sellers/${payload.sellerId}`;
    // The marketplace lists a conversation newest first: a message sent lately is on its first pages.
    for (let i = 0; i < CHECK_PAGES; i++) {
      let res;
      try {
        res = await this.client.request('GET', path, { query: { mark_as_read: 'false', limit: CHECK_PAGE_SIZE, offset: i * CHECK_PAGE_SIZE } });
      } catch (e) {
        return retryOutcome(e);
      }
      if (classifyStatus(res.status) !== 'ok') return answerOutcome(res, this.clock.now());
      const body = messagesPage.safeParse(res.body);
      if (!body.success) return { type: 'retry', offline: false, status: res.status, error: 'The conversation answer is malformed' };
      const found = body.data.messages.find((m) => isSentMessage(m, payload, row.created_at) && !this.outbox.repo.messageSettled(m.id));
      if (found) {
        const commit = () => {
          writeMessage(this.outbox, found, payload.packId);
          this.outbox.repo.markDone(row.id, { result_version: null, result: found.id, status: 200 }, this.clock.now());
          return null;
        };
        return { type: 'done', replayed: true, commit };
      }
      // The last page, or a message older than the entry: it is not further on.
      const older = body.data.messages.some((m) => Date.parse(m.message_date.created) < row.created_at - CLOCK_SKEW_MS);
      if (body.data.messages.length < CHECK_PAGE_SIZE || older) break;
    }
    return { type: 'withdrawn', commit: () => this.outbox.withdrawChecked(row.id) };
  }

  constructor(
    private readonly outbox: Outbox,
    private readonly client: RemoteClient,
    private readonly writes: Writes,
    private readonly clock: Clock,
    private readonly files: FileStore,
  ) {}

  async push(row: OutboxRow): Promise<PushOutcome> {
    const stored = readPayload(row.payload);
    if (!stored.ok) return { type: 'failed', status: null, error: stored.error };
    const payload = stored.value;
    if (row.withdraw === 1) return this.check(row, payload);
    for (const [i, a] of payload.attachments.entries()) {
      if (a.remoteId !== null) continue;
      let res;
      try {
        const blob = await openAsBlob(this.files.pathOf(a.sha256), { type: a.type });
        const form = new FormData();
        form.append('file', blob, a.name);
        res = await this.client.request('POST', '/messages/attachments', {
          query: { tag: 'post_sale', site_id: payload.siteId },
          form,
          idempotencyKey: payload.uploadRound > 0 ? `${row.idempotency_key}.a${i}.r${payload.uploadRound}` : `${row.idempotency_key}.a${i}`,
        });
      } catch (e) {
        return retryOutcome(e);
      }
      if (classifyStatus(res.status) !== 'ok') return answerOutcome(res, this.clock.now());
      const uploaded = uploadAnswer.safeParse(res.body);
      if (!uploaded.success) return { type: 'retry', offline: false, status: res.status, error: 'The upload answer had no attachment id' };
      a.remoteId = uploaded.data.id;
      const text = JSON.stringify(payload);
      await this.writes.run(() => this.outbox.repo.setPayload(row.id, text, this.clock.now()));
    }

    // From here the message may reach the buyer whatever answer comes back (model.ts: unknown, not failed).
    if (row.sent_at === null) {
      const now = this.clock.now();
      await this.writes.run(() => this.outbox.repo.setMessageSent(row.id, now));
      row.sent_at = now;
    }
    let res;
    try {
      res = await this.client.request('POST', `/messages/packs/${payload.packId}/sellers/${payload.sellerId}`, {
        query: { tag: 'post_sale', application_id: this.client.auth.applicationId },
        json: {
          from: { user_id: String(payload.sellerId) },
          to: { user_id: String(payload.toUserId) },
          text: payload.text,
          ...(payload.attachments.length > 0 ? { attachments: payload.attachments.map((a) => a.remoteId) } : {}),
        },
        idempotencyKey: row.idempotency_key,
      });
    } catch (e) {
      return retryOutcome(e);
    }
    if (classifyStatus(res.status) === 'ok') {
      // Sent. An answer without the message's shape is not written to the mirror; the next pull brings the message.
      const sent = messageAnswer.safeParse(res.body);
      const view = sent.success ? sent.data : null;
      const status = res.status;
      const commit = () => {
        if (view) writeMessage(this.outbox, view, payload.packId);
        this.outbox.repo.markDone(row.id, { result_version: null, result: view?.id ?? null, status }, this.clock.now());
        return null;
      };
      return { type: 'done', replayed: res.replayed, commit };
    }
    if (res.status === 422 && errorCodeOf(res.body) === 'invalid_attachment') {
      for (const a of payload.attachments) a.remoteId = null;
      payload.uploadRound += 1;
      const text = JSON.stringify(payload);
      await this.writes.run(() => this.outbox.repo.setPayload(row.id, text, this.clock.now()));
      return { type: 'retry', offline: false, status: 422, error: 'The uploaded attachments expired on the marketplace; they will be uploaded again' };
    }
    return answerOutcome(res, this.clock.now());
  }
}

/** How far back (and ahead) of an entry's creation a marketplace date may be and still be its message: clocks differ. */
const CLOCK_SKEW_MS = 15 * 60_000;
/** Pages of a conversation read to find a message whose answer was lost (the newest first). */
const CHECK_PAGES = 5;
const CHECK_PAGE_SIZE = 100;

/** Whether a message of the marketplace is what a queued message sent (its sender, text and files, sent after it was queued). */
export function isSentMessage(
  m: { from: { user_id: number }; text: string; message_attachments: readonly unknown[] | null; message_date: { created: string } },
  p: MessagePayload,
  queuedAt: number,
): boolean {
  const created = Date.parse(m.message_date.created);
  return (
    m.from.user_id === p.sellerId &&
    m.text === p.text &&
    (m.message_attachments?.length ?? 0) === p.attachments.length &&
    Number.isFinite(created) &&
    created >= queuedAt - CLOCK_SKEW_MS
  );
}

/** The stored payload of a message entry, parsed. */
export function readPayload(text: string | null): { ok: true; value: MessagePayload } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text ?? '');
  } catch {
    return { ok: false, error: 'The queued message could not be read back (its stored payload is not JSON)' };
  }
  const r = messagePayload.safeParse(json);
  if (!r.success)
    return {
      ok: false,
      error: `The queued message could not be read back (${r.error.issues[0]?.path.join('.') ?? 'payload'}: ${r.error.issues[0]?.message ?? 'invalid'})`,
    };
  return { ok: true, value: r.data };
}

const errorCodeOf = (body: unknown) => (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string' ? body.error : null);
