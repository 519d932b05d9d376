// Over 400 lines on purpose: sending, listing and reading a conversation share the pack resolution,
// the access rules of SPEC 7.5/7.6 and the moderation verdict; split apart, those checks would drift.
import { hash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { GroupCommit } from '../../db/group-commit.js';
import type { Db } from '../../db/open.js';
import type { MessageRow, MessagesRepo, NewMessage } from '../../db/repos/messages.js';
import type { AuthService, Principal } from '../auth/auth.js';
import type { Clock } from '../clock.js';
import { ServiceError, badRequest, forbidden, notFound } from '../errors.js';
import type { JobRunner } from '../jobs/runner.js';
import { type IdempotencyGuard, guarded } from '../idempotency/idempotency.js';
import { parseUserId } from '../params.js';
import { AUTOMATIC_MESSAGE_WINDOW_MS, moderate, normalizeForRepetition } from '../../../common/messages/moderation/index.js';
import { type Pack, type Role, blockError, conversationStatus, orderErrors, parsePackId, resolvePack, roleIn, sendBlock } from './orders.js';
import { parseSendRequest, sendErrors, textField } from './send-request.js';
import { checkText } from '../../../common/messages/text-rules.js';
import {
  type AttachmentsPort,
  type LegacyMessageView,
  type MessageList,
  type MessageView,
  messageList,
  messageListJson,
  toLegacyView,
  toMessageView,
} from './views.js';

/** Durable job: decides a pending message (one sent with attachments) once its files are inspected. */
export const MODERATE_PENDING = 'messages.moderate_pending';

/**
 * Moderation applies to messages created from this instant on; a message created before it is
 * `non_moderated` (SPEC 2.8: "old messages to which moderation did not apply"). Fixture messages
 * keep the status they declare; for new messages the service clock decides.
 */
export const MODERATION_START = '2024-03-01T00:00:00.000Z';
const MODERATION_START_MS = Date.parse(MODERATION_START);

/** Paging of GET /messages/packs/...: `limit` 1..MAX_LIMIT (default 10), `offset` 0..999999999 (default 0). */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

/** SPEC 7.6 / FIXTURES: "mediation in process" blocks sending on one site only; this is the default. */
export const DEFAULT_MEDIATION_SITE = 'MLB';

/** Message ids: 32 hexadecimal characters (a UUID without dashes); upper case is accepted and folded. */
const MESSAGE_ID = /^[0-9a-fA-F]{32}$/;
/**
 * A new message id: a UUID of version 7 (RFC 9562) without dashes, 48 bits of Unix milliseconds
 * then 74 random bits. Ids made later sort later, so the messages' primary key index grows at its
 * end: random version-4 ids dirtied a page of it per send, each written to the WAL at commit.
 */
export function newMessageId(now: number = Date.now()): string {
  const time = Math.max(0, Math.min(Math.floor(now), 0xffffffffffff))
    .toString(16)
    .padStart(12, '0');
  // randomUUID's version nibble (index 14) becomes 7; its variant bits stay as they are.
  const u = randomUUID();
  return `${time}7${u.slice(15, 18)}${u.slice(19, 23)}${u.slice(24)}`;
}

export const readErrors = {
  /** SPEC 7.5. */
  accessDenied: (userId: number, messageId: string) => forbidden(`Access denied for user ${userId} to message with id ${messageId}`),
  malformedId: () => badRequest('The specified message id does not exists'),
  notStored: (messageId: string) => notFound(`The message with id: ${messageId} could not be retrieved from storage`),
  limitNotPositive: () => badRequest('The limit param must be greater than 0'),
  invalidLimit: (cause: string | null = null) => badRequest('Invalid limit param', cause ? [{ code: 'invalid_limit', message: cause }] : []),
  invalidOffset: () => badRequest('Invalid offset param'),
  invalidMarkAsRead: () => badRequest("Invalid mark_as_read param: use 'true' or 'false'"),
  invalidTag: () => badRequest("The queryparam 'tag' has an invalid value: only 'post_sale' is supported"),
};

export const authErrors = {
  /** SPEC 5 / 7.6: the send path answers 400 (not 401) for a missing token. */
  tokenRequired: () => badRequest('Access token is required'),
  applicationRequired: () => badRequest('Application id is required'),
  applicationMismatch: () => badRequest("The query param 'application_id' and the header 'x-client-id' name different applications"),
  unknownApplication: () => new ServiceError(401, 'invalid_client', 'Invalid application id: the application is not registered'),
  tokenOfOtherApplication: (id: number) => forbidden(`The access token was not issued to application ${id}`),
};

export const sendAccessErrors = {
  /** SPEC 7.6: the sender (from.user_id) is not the token's user, or not a party of the order. */
  accessDenied: (fromUserId: number, resourceId: number) => forbidden(`Access denied for user ${fromUserId} to order ${resourceId}`),
  receiverNotInOrder: (resourceId: number) => forbidden(`Receiver does not belong to order ${resourceId}`),
};

const iso = (ms: number) => new Date(ms).toISOString();
// One-shot hash: half the cost of a Hash object per send.
const sha256 = (text: string) => hash('sha256', text, 'hex');
/** The stored hash that finds identical texts across packs (AUTOMATIC_MESSAGE). */
export const textHash = (text: string) => sha256(normalizeForRepetition(text));

function queryObject(query: unknown): Record<string, unknown> {
  return typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
}

/** A single query value; a repeated parameter (an array) is malformed. */
const single = (v: unknown): string | undefined | null => (v === undefined ? undefined : typeof v === 'string' ? v : null);

function checkTag(q: Record<string, unknown>): void {
  if (q.tag !== undefined && q.tag !== 'post_sale') throw readErrors.invalidTag();
}

export function parseLimit(raw: unknown): number {
  const v = single(raw);
  if (v === undefined) return DEFAULT_LIMIT;
  if (v === null || !/^[+-]?[0-9]{1,12}$/.test(v)) throw readErrors.invalidLimit();
  const n = Number(v);
  if (n <= 0) throw readErrors.limitNotPositive();
  if (n > MAX_LIMIT) throw readErrors.invalidLimit(`limit cannot exceed ${MAX_LIMIT}`);
  return n;
}

export function parseOffset(raw: unknown): number {
  const v = single(raw);
  if (v === undefined) return 0;
  if (v === null || !/^[0-9]{1,9}$/.test(v)) throw readErrors.invalidOffset();
  return Number(v);
}

function parseMarkAsRead(raw: unknown): boolean {
  const v = single(raw);
  if (v === undefined || v === 'true') return true;
  if (v === 'false') return false;
  throw readErrors.invalidMarkAsRead();
}

export function parseMessageId(raw: string): string {
  if (!MESSAGE_ID.test(raw)) throw readErrors.malformedId();
  return raw.toLowerCase();
}

/** `x-format-new: true` (case-insensitive) selects the current shape on GET /messages/{id}; anything else the legacy one. */
export function wantsNewFormat(header: string | string[] | undefined): boolean {
  const v = Array.isArray(header) ? header[0] : header;
  return v?.trim().toLowerCase() === 'true';
}

/** Whether the recipient may see a message: SPEC 2.8, rejected ones never; pending ones not until clean. */
const visibleToRecipient = (m: Pick<MessageRow, 'moderation_status'>) => m.moderation_status === 'clean' || m.moderation_status === 'non_moderated';

export interface MessagesDeps {
  db: Db;
  repo: MessagesRepo;
  auth: AuthService;
  attachments: AttachmentsPort;
  jobs: JobRunner;
  writes: GroupCommit;
  clock: Clock;
  mediationSite?: string | undefined;
}

type Moderation = Pick<NewMessage, 'moderation_status' | 'moderation_reason' | 'moderation_source' | 'moderation_date' | 'date_available' | 'date_notified'>;

/** A pack read after its checks (`list`). */
interface PackRead {
  key: number;
  /** The pack's version when its orders were read (repo.packVersion). */
  version: bigint;
  reader: number;
  limit: number;
  offset: number;
  markAsRead: boolean;
  pack: Pack;
  role: Role;
}

export function messagesService(deps: MessagesDeps) {
  const { repo, auth, attachments, jobs, writes, clock } = deps;
  const mediationSite = deps.mediationSite ?? DEFAULT_MEDIATION_SITE;

  /** Identical texts (same normalized hash) the sender sent to other packs in the window before `at` (`until`: `at` as ISO text). */
  const identicalInOtherPacks = (m: Pick<MessageRow, 'id' | 'from_user_id' | 'text_hash' | 'pack_key'>, at: number, until = iso(at)) =>
    m.text_hash === null ? 0 : repo.identicalInOtherPacks(m.from_user_id, m.text_hash, m.pack_key, iso(at - AUTOMATIC_MESSAGE_WINDOW_MS), until, m.id);

  function views(rows: MessageRow[], sellerId: number): MessageView[] {
    const files = attachments.forMessages(rows.map((r) => r.id));
    return rows.map((r) => toMessageView(r, files.get(r.id) ?? [], sellerId));
  }

  jobs.register({
    kind: MODERATE_PENDING,
    schema: z.object({ message_id: z.string() }),
    // Idempotent: a message that is no longer pending (decided by an earlier run) is left alone.
    run: async ({ message_id: id }) => {
      const before = repo.messageById(id);
      if (!before || before.moderation_status !== 'pending') return;
      const inspection = await attachments.inspect(id);
      await writes.run(() => {
        const m = repo.messageById(id);
        if (!m || m.moderation_status !== 'pending') return;
        let verdict = moderate(m.text, { identicalTextsInOtherPacks: identicalInOtherPacks(m, Date.parse(m.date_created)) });
        // The readable text of the files is moderated like the message text (no repetition rule:
        // a file is not "the same text sent to other buyers").
        if (verdict.status === 'clean' && inspection.text.trim() !== '') verdict = moderate(inspection.text);
        // A file flagged as a potential threat does not reject the message: the flag travels with
        // the attachment (potential_security_threat; the legacy shape lists it under `forbidden`).
        repo.decide(id, {
          status: verdict.status,
          reason: verdict.status === 'rejected' ? verdict.reason : null,
          date: iso(clock.now()),
        });
      });
    },
  });

  /** The moderation of a new message at send time (`at`: `now` as ISO text). */
  function moderateOnSend(
    row: Pick<MessageRow, 'id' | 'from_user_id' | 'text_hash' | 'pack_key' | 'text'>,
    now: number,
    at: string,
    withFiles: boolean,
  ): Moderation {
    if (now < MODERATION_START_MS) {
      return {
        moderation_status: 'non_moderated',
        moderation_reason: null,
        moderation_source: null,
        moderation_date: null,
        date_available: at,
        date_notified: at,
      };
    }
    if (withFiles) {
      return {
        moderation_status: 'pending',
        moderation_reason: null,
        moderation_source: 'online',
        moderation_date: null,
        date_available: null,
        date_notified: null,
      };
    }
    const verdict = moderate(row.text, { identicalTextsInOtherPacks: identicalInOtherPacks(row, now, at) });
    if (verdict.status === 'clean') {
      return { moderation_status: 'clean', moderation_reason: null, moderation_source: 'online', moderation_date: at, date_available: at, date_notified: at };
    }
    return {
      moderation_status: 'rejected',
      moderation_reason: verdict.reason,
      moderation_source: 'online',
      moderation_date: at,
      date_available: null,
      date_notified: null,
    };
  }

  /** The checks of a pack read (`list`), in their order, and what the read needs. */
  function packRead(principal: Principal, rawPackId: string, rawUserId: string, query: unknown): PackRead {
    const q = queryObject(query);
    checkTag(q);
    const key = parsePackId(rawPackId);
    const sellerId = parseUserId(rawUserId);
    const limit = parseLimit(q.limit);
    const offset = parseOffset(q.offset);
    const markAsRead = parseMarkAsRead(q.mark_as_read);
    // One read of the pack's version: the orders and the page the repo keeps are checked against it.
    const version = repo.packVersion(key);
    const pack = resolvePack(repo, key, version);
    if (!pack) throw orderErrors.packNotFound(key);
    const role = roleIn(pack, principal.userId);
    if (role === null) throw orderErrors.noAccess(key);
    if (sellerId !== pack.sellerId) throw orderErrors.notTheSeller(key, sellerId);
    return { key, version, reader: principal.userId, limit, offset, markAsRead, pack, role };
  }

  /**
   * Runs `read` (one snapshot of its own), after marking the pack read when asked. Marking read is
   * a durable write, made only when the reader has something unread (the partial index
   * messages_unread answers that), in the same transaction as the read, in one statement.
   */
  function readPack<T>(r: PackRead, read: (marked: boolean) => T): T | Promise<T> {
    if (!r.markAsRead || repo.unreadCount(r.key, r.reader) === 0) return read(false);
    return writes.run(() => {
      repo.markRead(r.key, r.reader, iso(clock.now()));
      return read(true);
    });
  }

  return {
    /**
     * GET /messages/packs/{pack_id}/sellers/{user_id} (SPEC 4.9). Checks, in order:
     * 401 token (adapter) → `tag` (optional, 'post_sale') → pack id (400) → user id (400) →
     * `limit` → `offset` → `mark_as_read` (400 rows of 7.5) → pack exists (404) → caller is its
     * seller or buyer (403 "User access token invalid for resource <pack_id>") → `{user_id}` is the
     * pack's seller (404).
     * Unless `mark_as_read=false`, the counterparty's messages the reader can see are marked read
     * first (date_read, and date_notified when still null), in the same transaction as the read.
     */
    async list(principal: Principal, rawPackId: string, rawUserId: string, query: unknown): Promise<MessageList> {
      const r = packRead(principal, rawPackId, rawUserId, query);
      const { total, messages } = await readPack(r, () => repo.pageRows(r.key, r.reader, r.limit, r.offset));
      return messageList(views(messages, r.pack.sellerId), { limit: r.limit, offset: r.offset, total }, conversationStatus(r.pack, r.role, mediationSite));
    },

    /**
     * `list` as the UTF-8 bytes of its JSON answer (the HTTP door sends them as they are): the same
     * checks in the same order, the same marking, the same bytes as JSON.stringify of `list`'s
     * answer. The messages' JSON is built by SQLite and kept by the repo already encoded, so a page
     * is a copy of bytes (encoding 30 KB of text per answer was a third of the server's time per
     * page in `npm run bench messages`); a page with attachments is built from its rows.
     */
    async listJson(principal: Principal, rawPackId: string, rawUserId: string, query: unknown): Promise<Buffer> {
      const r = packRead(principal, rawPackId, rawUserId, query);
      const status = conversationStatus(r.pack, r.role, mediationSite);
      const paging = (total: number) => ({ limit: r.limit, offset: r.offset, total });
      return readPack(r, (marked) => {
        // Marking read (later, in a write) gave the pack a new version: the page is then read as of now.
        const page = repo.pageJson(r.key, r.reader, r.pack.sellerId, r.limit, r.offset, marked ? undefined : r.version);
        if (page) return messageListJson(page.messages, paging(page.total), status);
        const { total, messages } = repo.pageRows(r.key, r.reader, r.limit, r.offset);
        return Buffer.from(JSON.stringify(messageList(views(messages, r.pack.sellerId), paging(total), status)));
      });
    },

    /**
     * GET /messages/{message_id} (SPEC 4.10). Checks, in order: 401 token (adapter) → id format
     * (400 "The specified message id does not exists") → stored (404) → caller is its sender or
     * recipient (403) → a recipient does not see a rejected or pending message (404, as if not
     * stored). Reading one message does not mark it read (only reading the pack does).
     */
    get(principal: Principal, rawId: string, formatHeader: string | string[] | undefined): LegacyMessageView | MessageList {
      const id = parseMessageId(rawId);
      const m = repo.messageById(id);
      if (!m) throw readErrors.notStored(id);
      if (principal.userId !== m.from_user_id && principal.userId !== m.to_user_id) throw readErrors.accessDenied(principal.userId, id);
      if (principal.userId !== m.from_user_id && !visibleToRecipient(m)) throw readErrors.notStored(id);
      if (!wantsNewFormat(formatHeader)) return toLegacyView(m, attachments.forMessages([id]).get(id) ?? []);
      const order = repo.orderById(m.order_id)!;
      return messageList(views([m], order.seller_id), null, null);
    },

    /**
     * Authentication of the send (SPEC 5, 7.6), before the body is read:
     * 1. no bearer token → 400 "Access token is required";
     * 2. unknown or expired token → 401 `invalid_token`;
     * 3. no application id (query `application_id`, header `x-client-id`) → 400 "Application id is required";
     * 4. both given and different → 400;
     * 5. not a registered application (including a malformed id) → 401 `invalid_client`;
     * 6. a registered application other than the token's → 403.
     */
    authenticateSender(authorization: string | undefined, query: unknown, clientIdHeader: string | string[] | undefined): Principal {
      const token = auth.bearerToken(authorization);
      if (!token) throw authErrors.tokenRequired();
      const principal = auth.authenticate(token);
      const fromQuery = single(queryObject(query).application_id);
      const fromHeader = Array.isArray(clientIdHeader) ? null : clientIdHeader;
      const given = [fromQuery, fromHeader].filter((v) => v !== undefined && v !== '');
      if (given.length === 0) throw authErrors.applicationRequired();
      if (given.length === 2 && given[0] !== given[1]) throw authErrors.applicationMismatch();
      const raw = given[0];
      if (typeof raw !== 'string' || !/^[1-9][0-9]{0,15}$/.test(raw) || !auth.applicationExists(Number(raw))) {
        throw authErrors.unknownApplication();
      }
      const applicationId = Number(raw);
      if (applicationId !== principal.applicationId) throw authErrors.tokenOfOtherApplication(applicationId);
      return principal;
    },

    /*
     * POST /messages/packs/{pack_id}/sellers/{user_id}?tag=post_sale (SPEC 4.11). Order of checks,
     * the first failure wins (authenticateSender runs before, then the adapter parses the JSON body):
     *  1. `tag`, when present, is 'post_sale' (400)
     *  2. {pack_id} is an id (400), {user_id} is an id (400)
     *  3. a JSON object body: "A JSON body is required"
     *  4. `from` with `user_id`: "The field 'from' is required"; `from.user_id` an id: "Invalid 'from' user id"
     *  5. `to.user_id` present: "The field 'to.user_id' is required"; an id (0 allowed): "Invalid 'to' user id"
     *  6. from ≠ to: "Sender and received must not be equals"
     *  7. `to.user_id` 0 needs a secure `to.email`: "The field 'to.email' must be a secure email"
     *  8. older addressing, when any of to.resource/to.resource_id/to.site_id is present:
     *     "The field 'to.resource' is required" → "Invalid field 'to.resource'" (must be 'orders') →
     *     "The field 'to.site_id' is required" → "The field 'to.site_id' has an invalid value" (format) →
     *     "Invalid field 'to.resource_id'" (format)
     *  9. the pack exists (404)
     * 10. from.user_id is the token's user and a party of the pack: 403 "Access denied for user <from> to order <id>"
     * 11. {user_id} is the pack's seller (404)
     * 12. to.user_id is the counterparty (0 = the counterparty): 403 "Receiver does not belong to order <id>"
     * 13. to.site_id is the pack's site ("The field 'to.site_id' has an invalid value"); to.resource_id
     *     is the pack or one of its orders ("Invalid field 'to.resource_id'")
     * 14. conversation state: cancelled → 403 conversation_blocked; mediation on the mediation site → 403;
     *     platform fulfillment not delivered, seller sending → 403
     * 15. text: present, a string ("The field 'text' is required" / "... must be a string"), then
     *     checkText for the sender's role: empty → unsupported characters → too long (350 seller, 3500 buyer)
     * 16. attachments (service.attachments.requireAttachable): array of ids, at most 25 (400), each an
     *     unattached upload of the caller (422 invalid_attachment)
     * Then the message is stored and moderated (never an error: a rejected message is stored and
     * answered 201 with its moderation). <id> in 10 and 12 is to.resource_id when given, else {pack_id}.
     */
    async send(
      principal: Principal,
      rawPackId: string,
      rawUserId: string,
      query: unknown,
      body: unknown,
      // X-Idempotency-Key: the replay check and the stored answer run inside this same write.
      guard?: IdempotencyGuard<MessageView>,
    ): Promise<MessageView> {
      checkTag(queryObject(query));
      const key = parsePackId(rawPackId);
      const pathSellerId = parseUserId(rawUserId);
      const req = parseSendRequest(body);
      const resourceId = req.legacy?.resourceId ?? key;

      return writes.run(() =>
        guarded(guard, () => {
          const pack: Pack | undefined = resolvePack(repo, key);
          if (!pack) throw orderErrors.packNotFound(key);
          const role = roleIn(pack, req.fromUserId);
          if (req.fromUserId !== principal.userId || role === null) throw sendAccessErrors.accessDenied(req.fromUserId, resourceId);
          if (pathSellerId !== pack.sellerId) throw orderErrors.notTheSeller(key, pathSellerId);
          const counterparty = role === 'seller' ? pack.buyerId : pack.sellerId;
          const toUserId = req.toUserId === 0 ? counterparty : req.toUserId;
          if (toUserId !== counterparty) throw sendAccessErrors.receiverNotInOrder(resourceId);
          if (req.legacy) {
            if (req.legacy.siteId !== pack.siteId) throw sendErrors.invalidSite();
            const r = req.legacy.resourceId;
            if (r !== null && r !== key && !pack.orders.some((o) => o.id === r)) throw sendErrors.invalidResourceId();
          }
          const block = sendBlock(pack, role, mediationSite);
          if (block) throw blockError(block);
          const text = textField(req.text);
          const problem = checkText(text, role);
          if (problem) throw badRequest(problem.message, [problem]);
          const files = attachments.requireAttachable(principal, req.attachments, pack.siteId);

          const now = clock.now();
          const at = iso(now);
          const base = { id: newMessageId(now), from_user_id: req.fromUserId, pack_key: key, text, text_hash: textHash(text) };
          const stored = repo.insertMessage({
            ...base,
            order_id: pack.orderId,
            to_user_id: toUserId,
            site_id: pack.siteId,
            client_id: principal.applicationId,
            subject: null,
            date_created: at,
            date_received: at,
            date_read: null,
            ...moderateOnSend(base, now, at, files.length > 0),
          });
          if (files.length > 0) attachments.attach(base.id, files);
          if (stored.moderation_status === 'pending') jobs.enqueue(MODERATE_PENDING, { message_id: base.id });
          // A new message has attachments only when this send linked them.
          return files.length > 0 ? views([stored], pack.sellerId)[0]! : toMessageView(stored, [], pack.sellerId);
        }),
      );
    },
  };
}
export type MessagesService = ReturnType<typeof messagesService>;
