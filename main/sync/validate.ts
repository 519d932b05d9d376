import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { MirrorRepo } from '../db/repos/mirror.js';
import type { MessagesRepo } from '../db/repos/messages.js';
import type { LocationType, StoreRow } from '../db/repos/stock.js';
import type { EditableType } from '../db/repos/sync.js';
import { ServiceError, badRequest } from '../service/errors.js';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_MESSAGE, attachmentErrors, nameError } from '../service/messages/attachments/service.js';
import { sendAccessErrors } from '../service/messages/messages.js';
import { type Finding, findIssues } from '../../common/messages/moderation/index.js';
import { type Pack, blockError, orderErrors, resolvePack, roleIn, sendBlock } from '../service/messages/orders.js';
import { checkText } from '../../common/messages/text-rules.js';
import { assertPairing, userProductErrors } from '../service/stock/locations.js';
import { assertStockLocation, storeErrors } from '../service/stock/stores.js';
import { parseUserProductId } from '../service/params.js';
import type { CellRef } from './outbox.js';
import { NOT_READ_MESSAGE } from './read-model.js';

/**
 * Queue-time checks: the same rules the marketplace applies, run against the replica before
 * anything is queued, so that nothing goes into the outbox that the remote must refuse. Failures
 * are ServiceErrors with the marketplace's own messages (the IPC adapter maps them like the HTTP one).
 */

export interface StockTarget {
  userProductId: string;
  type: string;
  /** Required for seller_warehouse, absent for selling_address. */
  storeId?: string | undefined;
}

/** The cell of an edit, checked as SPEC 4.5 / 4.6 / 7.2 would check it, over the mirror. */
export function checkStockTarget(stores: { storeById(id: string): StoreRow | undefined }, mirror: MirrorRepo, sellerId: number, t: StockTarget): CellRef {
  const id = parseUserProductId(t.userProductId);
  if (t.type === 'platform_facility') throw badRequest('Stock of type platform_facility is managed by the platform and cannot be edited');
  if (t.type !== 'seller_warehouse' && t.type !== 'selling_address') throw badRequest(`Unknown stock location type: ${t.type}`);
  const type: EditableType = t.type;
  const product = mirror.product(id);
  if (!product) throw userProductErrors.notFound(id);
  if (product.user_id !== sellerId) throw userProductErrors.denied(sellerId, id);
  // Known from its listing only (a first pull, issue 29): an edit would be based on a quantity nobody has seen.
  if (!product.stockRead) throw new ServiceError(409, 'stock_not_read', NOT_READ_MESSAGE);
  let storeKey = '';
  if (type === 'seller_warehouse') {
    const storeId = t.storeId?.trim();
    if (!storeId) throw storeErrors.nullOrEmpty();
    assertStockLocation(stores.storeById(storeId), storeId, sellerId);
    storeKey = storeId;
  } else if (t.storeId !== undefined && t.storeId !== '') {
    throw badRequest('A selling_address cell has no store');
  }
  const types: LocationType[] = mirror.cells(id).map((c) => c.type);
  assertPairing(id, [...types, type]);
  return { userProductId: id, type, storeKey };
}

export interface OutgoingFile {
  /** Where the file is now (a picker, a drop); it is copied into the app's store when queued. */
  path: string;
  /** The name the buyer sees (default: the file's base name). */
  name?: string;
  /** The media type (default: detected from the content and the name). */
  type?: string;
}

export interface CheckedFile {
  path: string;
  name: string;
  type: string | undefined;
  size: number;
}

/** A moderation finding shown as a warning before sending (the marketplace decides). */
export type ModerationWarning = Pick<Finding, 'reason' | 'rule' | 'match' | 'index' | 'message'>;

/**
 * SPEC 4.11 / 4.12 / 7.6 before queueing a message: the conversation (exists, the seller is its
 * seller, not blocked), the text (empty → characters → length, the server's checkText), the
 * attachments (at most 25, names, not empty, at most 25 MB each). Moderation runs as a pre-check:
 * its findings are returned as warnings, the message is still queued.
 */
export async function checkMessage(
  messages: MessagesRepo,
  sellerId: number,
  mediationSite: string,
  input: { packId: number; text: unknown; files?: OutgoingFile[] },
): Promise<{ pack: Pack; text: string; files: CheckedFile[]; warnings: ModerationWarning[] }> {
  const pack = resolvePack(messages, input.packId);
  if (!pack) throw orderErrors.packNotFound(input.packId);
  if (roleIn(pack, sellerId) !== 'seller') throw sendAccessErrors.accessDenied(sellerId, input.packId);
  const block = sendBlock(pack, 'seller', mediationSite);
  if (block) throw blockError(block);
  if (typeof input.text !== 'string') throw badRequest("The field 'text' is required");
  const problem = checkText(input.text, 'seller');
  if (problem) throw badRequest(problem.message, [problem]);
  const files = input.files ?? [];
  if (files.length > MAX_ATTACHMENTS_PER_MESSAGE) throw attachmentErrors.tooMany();
  const checked: CheckedFile[] = [];
  for (const f of files) {
    const name = f.name ?? basename(f.path);
    const refused = nameError(name);
    if (refused) throw refused;
    const info = await stat(f.path).catch(() => undefined);
    if (!info || !info.isFile()) throw badRequest(`Cannot read the file ${name}`);
    if (info.size === 0) throw attachmentErrors.empty();
    if (info.size > MAX_ATTACHMENT_BYTES) throw attachmentErrors.tooBig();
    checked.push({ path: f.path, name, type: f.type, size: info.size });
  }
  const warnings = findIssues(input.text).map(({ reason, rule, match, index, message }) => ({ reason, rule, match, index, message }));
  return { pack, text: input.text, files: checked, warnings };
}
