import { openAsBlob } from 'node:fs';
import { FormData } from 'undici';
import type { Writes } from './relaxed-writes.js';
import type { OutboxRow } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import type { fileStorage } from '../service/messages/attachments/storage.js';
import type { MessageView } from '../service/messages/views.js';
import { type RemoteClient, type RemoteErrorBody, classifyStatus } from './client.js';
import type { Outbox } from './outbox.js';
import { writeMessage } from './pull.js';
import { type PushOutcome, answerOutcome, retryOutcome } from './stock-push.js';
import type { ModerationWarning } from './validate.js';

/** One attachment of a queued message: its bytes are in the app's own store under `sha256`. */
export interface QueuedAttachment {
  sha256: string;
  name: string;
  type: string;
  size: number;
  /** The remote attachment id once uploaded (4.12), kept so a retry does not upload again. */
  remoteId: string | null;
}

/** The `payload` of a message entry. */
export interface MessagePayload {
  packId: number;
  sellerId: number;
  toUserId: number;
  siteId: string;
  text: string;
  attachments: QueuedAttachment[];
  warnings: ModerationWarning[];
  /** Bumped when expired uploads must be uploaded again (their keys change with it). */
  uploadRound: number;
}

export type FileStore = ReturnType<typeof fileStorage>;

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
    const payload = JSON.parse(row.payload ?? '{}') as MessagePayload;
    for (const [i, a] of payload.attachments.entries()) {
      if (a.remoteId !== null) continue;
      let res;
      try {
        const blob = await openAsBlob(this.files.pathOf(a.sha256), { type: a.type });
        const form = new FormData();
        form.append('file', blob, a.name);
        res = await this.client.request<{ id?: string }>('POST', '/messages/attachments', {
          query: { tag: 'post_sale', site_id: payload.siteId },
          form,
          idempotencyKey: payload.uploadRound > 0 ? `${row.idempotency_key}.a${i}.r${payload.uploadRound}` : `${row.idempotency_key}.a${i}`,
        });
      } catch (e) {
        return retryOutcome(e);
      }
      if (classifyStatus(res.status) !== 'ok' || typeof res.body?.id !== 'string') return answerOutcome(res, this.clock.now());
      a.remoteId = res.body.id;
      const text = JSON.stringify(payload);
      await this.writes.run(() => this.outbox.repo.setPayload(row.id, text, this.clock.now()));
    }

    let res;
    try {
      res = await this.client.request<MessageView | RemoteErrorBody>('POST', `/messages/packs/${payload.packId}/sellers/${payload.sellerId}`, {
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
    if (classifyStatus(res.status) === 'ok' && res.body && 'id' in res.body && typeof res.body.id === 'string') {
      const view = res.body;
      const status = res.status;
      const commit = () => {
        writeMessage(this.outbox, view, payload.packId);
        this.outbox.repo.markDone(row.id, { result_version: null, result: view.id, status }, this.clock.now());
        return null;
      };
      return { type: 'done', replayed: res.replayed, commit };
    }
    if (res.status === 422 && res.body && 'error' in res.body && res.body.error === 'invalid_attachment') {
      for (const a of payload.attachments) a.remoteId = null;
      payload.uploadRound += 1;
      const text = JSON.stringify(payload);
      await this.writes.run(() => this.outbox.repo.setPayload(row.id, text, this.clock.now()));
      return { type: 'retry', offline: false, status: 422, error: 'The uploaded attachments expired on the marketplace; they will be uploaded again' };
    }
    return answerOutcome(res, this.clock.now());
  }
}
