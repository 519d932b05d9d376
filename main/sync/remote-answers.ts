import { z } from 'zod';
import { LOCATION_TYPES } from '../../common/stock-vocabulary.js';
import { ServiceError } from '../service/errors.js';
import type { BrandDetailView, BrandListEntryView, ItemView, MessageView, StoreView } from '../../common/views.js';
import type { OrderView } from '../service/messages/orders.js';
import type { User } from '../service/users/users.js';
import type { OtherLocation } from '../db/repos/mirror.js';
import { displayFileName } from '../../common/messages/file-names.js';

/**
 * What the remote marketplace answers, parsed before anything of it reaches the replica: a
 * malformed answer (a missing field, a wrong type, a quantity out of range) is refused with the
 * path of the field, and nothing of it is written. Each schema is checked against the shape the
 * mirror writes (`satisfies`), so the two cannot drift apart. Fields the app does not use are
 * dropped.
 */

const id = z.number().int().nonnegative();
const text = z.string();
const quantity = z.number().int().min(0);
const dateText = z.string().min(1);

/**
 * A value of a list the marketplace grows over time (a status, a reason, a logistic type): the
 * known ones, or any other short text, kept as sent so the screens show it as "other" with the
 * raw value. A value the app does not know yet never fails a pull.
 */
const openValue = z.string().min(1).max(100);

export const remoteLocation = z.object({
  type: z.enum(LOCATION_TYPES),
  quantity,
  store_id: z.string().min(1).optional(),
  network_node_id: z.string().optional(),
});

type RemoteLocationAnswer = z.infer<typeof remoteLocation>;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const KNOWN_LOCATION_TYPES: ReadonlySet<unknown> = new Set(LOCATION_TYPES);

/** Most locations of other kinds kept for one user product (a real product has a handful). */
export const MAX_OTHER_LOCATIONS = 100;

const isOtherKind = (l: unknown) => isObject(l) && typeof l.type === 'string' && !KNOWN_LOCATION_TYPES.has(l.type);

/**
 * A location of a kind this app does not know (the marketplace adds kinds): kept as sent, apart
 * from the cells. The mirror's cells are the places the app edits, each with its own rules
 * (SPEC 7.3); a kind without rules is shown read-only as "other" with its raw type.
 */
export const otherLocation = z.object({
  type: openValue,
  quantity,
  store_id: z.string().min(1).max(100).optional(),
  network_node_id: z.string().max(100).optional(),
}) satisfies z.ZodType<OtherLocation>;

/** The known kinds only (an answer whose other kinds this app does not keep: a PUT's). */
const locations = z.preprocess((ls) => (Array.isArray(ls) ? ls.filter((l) => !isOtherKind(l)) : ls), z.array(remoteLocation));

/** `locations` split into the known kinds and the others (`other_locations`, whatever the remote put there). */
function splitLocations(body: unknown): unknown {
  if (!isObject(body) || !Array.isArray(body.locations)) return body;
  const ls: unknown[] = body.locations;
  return { ...body, locations: ls.filter((l) => !isOtherKind(l)), other_locations: ls.filter(isOtherKind) };
}

/** GET /user-products/{id}/stock (SPEC 4.4); the version comes in `x-version`. */
export const stockAnswer = z.preprocess(
  splitLocations,
  z.object({ user_id: id, locations: z.array(remoteLocation), other_locations: z.array(otherLocation).max(MAX_OTHER_LOCATIONS) }),
);

/** The body of a seller_warehouse PUT's answer: the locations after the write. */
export const sellerWarehouseAnswer = z.object({ locations });

/** remoteLocation's output for `l`, or undefined when `l` is not a location as the remote sends it (see below). */
function locationOf(l: unknown): RemoteLocationAnswer | undefined {
  if (!isObject(l)) return undefined;
  const { type, quantity, store_id: store, network_node_id: node } = l;
  if (!KNOWN_LOCATION_TYPES.has(type) || typeof quantity !== 'number' || !Number.isSafeInteger(quantity) || quantity < 0) return undefined;
  const out: RemoteLocationAnswer = { type: type as RemoteLocationAnswer['type'], quantity };
  if (store !== undefined) {
    if (typeof store !== 'string' || store.length === 0) return undefined;
    out.store_id = store;
  } else if ('store_id' in l) return undefined;
  if (node !== undefined) {
    if (typeof node !== 'string') return undefined;
    out.network_node_id = node;
  } else if ('network_node_id' in l) return undefined;
  return out;
}

/**
 * `sellerWarehouseAnswer.safeParse(body)`, with the answer as the remote sends it checked by hand
 * first: the schema's generic walk cost each PUT of a flush about 5 µs and 5 KB of garbage. The
 * hand check accepts only what the schema accepts, and returns the schema's output (the same
 * fields, unknown ones dropped); anything it does not accept goes to the schema itself, which
 * decides and names the field at fault. test/sync/remote-answers-fast.test.ts holds the two to
 * the same results.
 */
export function parseSellerWarehouseAnswer(body: unknown): z.ZodSafeParseResult<z.infer<typeof sellerWarehouseAnswer>> {
  const locations = isObject(body) ? body.locations : undefined;
  if (Array.isArray(locations)) {
    const out: RemoteLocationAnswer[] = [];
    for (const l of locations) {
      const loc = locationOf(l);
      if (loc === undefined) return sellerWarehouseAnswer.safeParse(body);
      out.push(loc);
    }
    return { success: true, data: { locations: out } };
  }
  return sellerWarehouseAnswer.safeParse(body);
}

export const userAnswer = z.object({
  id,
  nickname: text,
  registration_date: text,
  first_name: text,
  last_name: text,
  gender: text,
  country_id: text,
  site_id: text,
  user_type: z.string().nullable().optional(),
  tags: z.array(text),
}) satisfies z.ZodType<User & { user_type?: string | null | undefined }>;

export const storeAnswer = z.object({
  id: z.string().min(1),
  user_id: z.string().min(1),
  description: text,
  status: text,
  location: z.record(z.string(), z.unknown()),
  tags: z.array(text),
  network_node_id: text,
}) satisfies z.ZodType<StoreView>;

export const storesPage = z.object({ paging: z.object({ total: z.number().int().nonnegative(), limit: z.number().int() }), results: z.array(storeAnswer) });
export const itemIdsPage = z.object({ paging: z.object({ total: z.number().int().nonnegative() }), results: z.array(z.string().min(1)) });

export const itemAnswer = z.object({
  id: z.string().min(1),
  site_id: text,
  title: text,
  seller_id: id,
  category_id: text,
  user_product_id: z.string().min(1),
  price: z.number(),
  base_price: z.number(),
  currency_id: text,
  listing_type_id: text,
  channels: z.array(text),
  official_store_id: id.optional(),
  available_quantity: quantity.nullable().optional(),
  date_created: dateText,
}) satisfies z.ZodType<Omit<ItemView, 'stock_locations'>>;

/** POST /items/multiwarehouse's answer: the item, its stock locations as sent. */
export const listedItemAnswer = itemAnswer.extend({
  stock_locations: z.array(z.object({ store_id: z.string(), quantity, network_node_id: z.string() })).optional(),
}) satisfies z.ZodType<ItemView>;

const picture = z.object({ id: z.number(), name: text, secure_url: z.string().nullable(), url: text, size: text });

export const brandListEntry = z.object({
  site_id: text,
  official_store_id: id,
  name: text,
  type: text,
  relevance_position: z.number(),
  status: text,
  fantasy_name: text,
  date_created: text,
  return_policy: z.unknown(),
  landing_permalink: text,
  pictures: z.array(picture),
  tags: z.array(text),
  categories_ids: z.array(text),
  main_categories: z.array(z.object({ id: text })),
  permalink: text,
  normalized_name: text,
  last_updated: text,
}) satisfies z.ZodType<BrandListEntryView>;

export const brandsAnswer = z.object({ brands: z.array(brandListEntry) });

export const brandDetail = z.object({
  tags: z.array(text),
  official_store_id: id,
  categories_ids: z.array(text),
  fantasy_name: text,
  users: z.array(z.object({ cust_id: id, tags: z.array(text), site_id: text, user_type: text })),
  site_id: text,
  status: text,
  name: text,
  date_created: text,
  pictures: z.array(picture),
  boost: z.object({ is_active: z.boolean(), last_update: z.string().nullable() }),
  relevance_position: z.number(),
}) satisfies z.ZodType<BrandDetailView>;

/** Known: fulfillment, cross_docking, self_service. */
const logisticType = openValue;

/**
 * The marketplace's order (GET /orders/{id}, /orders/search), with the messaging facts this
 * service adds; its status and logistic types as sent (known: paid, cancelled).
 */
export const orderAnswer = z.object({
  id,
  status: openValue,
  date_created: dateText,
  total_amount: z.number().nonnegative(),
  currency_id: z.string().min(1).nullable(),
  order_items: z.array(
    z.object({
      item: z.object({ id: z.string().min(1), title: text }),
      quantity: z.number().int().positive(),
      unit_price: z.number().nonnegative(),
      currency_id: z.string().min(1),
    }),
  ),
  buyer: z.object({ id, nickname: text, first_name: text, last_name: text }),
  seller: z.object({ id }),
  shipping: z.object({ id: id.nullable(), logistic_type: logisticType }),
  pack_id: id.nullable(),
  site_id: text,
  status_date: text,
  logistic_type: logisticType,
  delivered: z.boolean(),
  mediation_in_process: z.boolean(),
}) satisfies z.ZodType<Omit<OrderView, 'status' | 'logistic_type' | 'shipping'> & { status: string; logistic_type: string }>;

export const ordersPage = z.object({ paging: z.object({ total: z.number().int().nonnegative() }), results: z.array(orderAnswer) });

const attachmentAnswer = z.object({
  filename: z.string().min(1),
  // Shown and offered as a save name: held to the app's own name rules, as an upload is.
  original_filename: text.transform(displayFileName),
  type: text,
  size: z.number().int().nonnegative(),
  potential_security_threat: z.boolean(),
  creation_date: text,
});

export const messageAnswer = z.object({
  id: z.string().min(1),
  site_id: text,
  client_id: z.number().int().nullable(),
  from: z.object({ user_id: id }),
  to: z.object({ user_id: id }),
  status: z.literal('available'),
  subject: z.string().nullable(),
  text,
  message_date: z.object({ received: text, available: z.string().nullable(), notified: z.string().nullable(), created: text, read: z.string().nullable() }),
  message_moderation: z.object({
    status: z.enum(['clean', 'rejected', 'pending', 'non_moderated']),
    reason: z.string().nullable(),
    source: z.string().nullable(),
    moderation_date: z.string().nullable(),
  }),
  message_attachments: z.array(attachmentAnswer).nullable(),
  message_resources: z.array(z.object({ id: text, name: z.enum(['packs', 'sellers']) })),
  conversation_first_message: z.boolean(),
}) satisfies z.ZodType<MessageView>;

/**
 * A message as the pull reads it: statuses, reasons and resource names as sent (the push checks
 * its own answers against messageAnswer, the shape it sent).
 */
export const pulledMessage = messageAnswer.extend({
  status: openValue,
  message_moderation: messageAnswer.shape.message_moderation.extend({ status: openValue }),
  message_resources: z.array(z.object({ id: text, name: openValue })),
});
export type PulledMessage = z.infer<typeof pulledMessage>;

export const messagesPage = z.object({ paging: z.object({ total: z.number().int().nonnegative() }).nullable(), messages: z.array(pulledMessage) });

/** POST /messages/attachments (SPEC 4.12): the new attachment's id. */
export const uploadAnswer = z.object({ id: z.string().min(1) });

/** A remote answer that does not have the shape the app relies on (502: the remote's fault, not the caller's). */
export class BadAnswerError extends ServiceError {
  constructor(
    readonly what: string,
    readonly issues: string[],
  ) {
    super(502, 'remote_error', `${what}: the marketplace's answer is malformed (${issues.join('; ')})`);
    this.name = 'BadAnswerError';
  }
}

/** Parses `body` with `schema`, or throws a BadAnswerError naming the fields at fault. */
export function parseAnswer<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  throw new BadAnswerError(
    what,
    r.error.issues.slice(0, 5).map((i) => `${i.path.length > 0 ? i.path.join('.') : '(the body)'}: ${i.message}`),
  );
}
