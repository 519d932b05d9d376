import { openAsBlob } from 'node:fs';
import { FormData } from 'undici';
import { z } from 'zod';
import { MODERATION_REASONS } from '../../common/messages/moderation/index.js';
import type { Writes } from '../db/relaxed-writes.js';
import type { OutboxRow } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import type { FileStore } from '../service/messages/attachments/storage.js';
import { type RemoteClient, classifyStatus } from './client.js';
import { messageAnswer, uploadAnswer } from './remote-answers.js';
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
