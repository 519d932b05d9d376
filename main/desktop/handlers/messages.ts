import { createReadStream, createWriteStream } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ConversationsView } from '../../../common/contract/contract.js';
import { ServiceError, badRequest } from '../../service/errors.js';
import { MAX_ATTACHMENT_BYTES } from '../../service/messages/attachments/service.js';
import { orderErrors, resolvePack } from '../../service/messages/orders.js';
import { draftsOf, keptOwner } from '../drafts.js';
import { desktopErrors } from '../errors.js';
import type { Profile } from '../profile.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

const DEFAULT_LIST_LIMIT = 50;

/** A plain object type with the same fields (an interface has no index signature; its fields do not change). */
type Plain<T> = { [K in keyof T]: T[K] };

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) {
      stream.destroy();
      throw badRequest('File attachment is bigger than 25 Mb.');
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

function attachmentRow(p: Profile, id: string) {
  const row = p.repos.attachments.fileOf(id);
  if (!row) throw new ServiceError(404, 'not_found', `Attachment ${id.slice(0, 200)} not found`);
  return row;
}

async function openAttachment(p: Profile, id: string) {
  const row = attachmentRow(p, id);
  // A replica fetches the bytes from the marketplace the first time (needs a connection).
  if (p.kind === 'remote') await p.engine.attachmentFile(id);
  const d = await p.service.attachments.download(p.principal, id, { site_id: row.site_id, tag: 'post_sale' });
  return { row, download: d };
}

/** `messages`: the inbox, threads, sending (with staged files), attachments and quick replies. */
export function messagesHandlers(ctx: Pick<HandlerContext, 'current' | 'host' | 'staging' | 'quickReplies' | 'feed' | 'log'>) {
  return {
    conversations: async (q): Promise<ConversationsView> => {
      const p = await ctx.current();
      return p.inbox.conversations(p.sellerId, {
        filter: q?.filter ?? 'all',
        limit: q?.limit ?? DEFAULT_LIST_LIMIT,
        offset: q?.offset ?? 0,
        ...(q?.packId !== undefined ? { packId: q.packId } : {}),
        ...(q?.search !== undefined ? { search: q.search } : {}),
      });
    },
    thread: async ({ packId, limit, offset, markAsRead }) => {
      const p = await ctx.current();
      const unreadBefore =
        p.kind === 'remote' && markAsRead !== false
          ? p.inbox.conversations(p.sellerId, { filter: 'unread', limit: 1000, offset: 0 }).conversations.some((c) => c.packId === packId)
          : false;
      const list = await p.service.messages.list(p.principal, String(packId), String(p.sellerId), {
        limit: String(limit ?? 20),
        offset: String(offset ?? 0),
        mark_as_read: markAsRead === false ? 'false' : 'true',
      });
      if (unreadBefore && p.remote && p.engine.mode === 'online') {
        // The marketplace marks a pack read when its seller reads it; a pull never does (it reads with mark_as_read=false).
        p.remote
          .request('GET', `/messages/packs/${packId}/sellers/${p.sellerId}`, { query: { mark_as_read: 'true', limit: 1 } })
          .catch((e: unknown) => ctx.log(e));
      }
      if (markAsRead !== false) ctx.feed.unreadMayHaveChanged();
      const queued = p.outbox.queuedMessages(packId);
      const status: Plain<NonNullable<typeof list.conversation_status>> | null = list.conversation_status;
      return { packId, ...list, conversation_status: status, queued };
    },
    send: async ({ packId, text, fileIds }) => {
      const p = await ctx.current();
      const files = (fileIds ?? []).map((id) => ctx.staging.get(id));
      if (p.kind === 'remote') {
        const drafts = draftsOf(p.db);
        // The draft goes in the send's own transaction: after a crash there is the queued message or the draft, never both.
        const r = await p.engine.queueMessage(
          {
            packId,
            text,
            files: files.map((f) => ({ path: f.path, name: f.name, ...(f.type ? { type: f.type } : {}) })),
            author: p.author,
          },
          () => drafts.save(packId, ''),
        );
        for (const f of files) await ctx.staging.discard(f.fileId);
        drafts.sweep(ctx.staging, keptOwner(p));
        ctx.feed.scheduleStatus();
        return { status: 'queued' as const, entryId: r.entryId, warnings: r.warnings };
      }
      // Local-only: the embedded service is the marketplace; upload, then send, as a client of the spec would.
      const pack = resolvePack(p.repos.messages, packId);
      if (!pack) throw orderErrors.packNotFound(packId);
      const ids: string[] = [];
      for (const f of files) {
        const ticket = p.service.attachments.beginUpload(
          p.principal,
          { site_id: pack.siteId, tag: 'post_sale' },
          'multipart/form-data; boundary=stockroom',
          undefined,
        );
        const info = await stat(f.path);
        if (info.size > MAX_ATTACHMENT_BYTES) throw badRequest('File attachment is bigger than 25 Mb.');
        const part = { type: 'file' as const, fieldname: 'file', filename: f.name, mimetype: f.type ?? undefined, file: createReadStream(f.path) };
        ids.push(
          (
            await p.service.attachments.upload(
              ticket,
              (async function* () {
                yield part;
              })(),
            )
          ).id,
        );
      }
      const message = await p.service.messages.send(
        p.principal,
        String(packId),
        String(p.sellerId),
        { tag: 'post_sale' },
        {
          from: { user_id: p.sellerId },
          to: { user_id: pack.buyerId },
          text,
          ...(ids.length > 0 ? { attachments: ids } : {}),
        },
      );
      for (const f of files) await ctx.staging.discard(f.fileId);
      draftsOf(p.db).sweep(ctx.staging, keptOwner(p));
      return { status: 'sent' as const, message };
    },
    stageFile: async ({ name, type, bytes }) => ctx.staging.stageBytes(name, type, bytes),
    pickFiles: async () => {
      if (!ctx.host.dialogs) throw desktopErrors.unsupported('The file dialog');
      const paths = await ctx.host.dialogs.openFiles();
      const out = [];
      for (const path of paths) out.push(await ctx.staging.stagePath(path));
      return out;
    },
    discardFile: async ({ fileId }) => {
      await ctx.staging.discard(fileId);
      return { fileId };
    },
    readAttachment: async ({ attachmentId }) => {
      const p = await ctx.current();
      const { row, download } = await openAttachment(p, attachmentId);
      const bytes = await readAll(download.stream, MAX_ATTACHMENT_BYTES);
      return { name: row.original_filename, type: row.media_type, size: bytes.length, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    },
    saveAttachment: async ({ attachmentId }) => {
      if (!ctx.host.dialogs) throw desktopErrors.unsupported('The save dialog');
      const p = await ctx.current();
      const row = attachmentRow(p, attachmentId);
      const target = await ctx.host.dialogs.saveFile(row.original_filename);
      if (target === null) return { saved: false, path: null };
      const { download } = await openAttachment(p, attachmentId);
      const tmp = `${target}.stockroom-part`;
      await pipeline(download.stream, createWriteStream(tmp, { mode: 0o644 }));
      await rename(tmp, target);
      return { saved: true, path: target };
    },
    drafts: async () => {
      const p = await ctx.current();
      return draftsOf(p.db).list(ctx.staging, keptOwner(p));
    },
    saveDraft: async ({ packId, text, fileIds }) => {
      const p = await ctx.current();
      // A file removed (or sent) meanwhile is no longer the draft's.
      const files = [];
      for (const id of fileIds ?? []) {
        const f = await ctx.staging.keep(id, keptOwner(p));
        if (f) files.push(f);
      }
      const drafts = draftsOf(p.db);
      const saved = drafts.save(packId, text, files);
      // An erased draft's files, and any its earlier saves left behind, have no row now.
      if (!saved) drafts.sweep(ctx.staging, keptOwner(p));
      return { packId, saved };
    },
    quickReplies: async () => ctx.quickReplies.list(),
    saveQuickReplies: async ({ replies }) => ctx.quickReplies.save(replies),
  } satisfies AreaHandlers<'messages'>;
}
