import { badRequest } from '../errors.js';
import { requireObject } from '../params.js';

/**
 * The body of POST /messages/packs/{pack_id}/sellers/{user_id} (SPEC 4.11), checked for shape
 * only: everything that needs the database (the order, the parties, the conversation state) is
 * checked afterwards by the send itself. Unknown fields are ignored.
 *
 * User ids: the spec types them as strings; a string of digits and a JSON integer are both
 * accepted (integrators send either). `to.user_id` may be "0" together with a secure `to.email`:
 * the message then goes to the sender's counterparty in the order, addressed by its masked e-mail.
 *
 * Optional addressing of the older message API (`to.resource`, `to.resource_id`, `to.site_id`):
 * absent altogether is fine (the path names the pack); when any of the three is present,
 * `to.resource` ('orders') and `to.site_id` (the pack's site) are both required, and
 * `to.resource_id`, when present, must name the pack or one of its orders.
 */

export interface SendRequest {
  fromUserId: number;
  /** 0 when addressed by secure e-mail. */
  toUserId: number;
  toEmail: string | null;
  /** Present only with the older addressing fields. */
  legacy: { siteId: string; resourceId: number | null } | null;
  text: unknown;
  attachments: unknown;
}

/**
 * The marketplace-masked ("secure") e-mail of a party of an order: a lower-case local part of
 * letters, digits, dots, dashes, underscores and '+', at the marketplace's relay domain.
 */
export const SECURE_EMAIL = /^[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9])?@mail\.mercadoli(?:b|v)re\.com$/;

export const sendErrors = {
  fromRequired: () => badRequest("The field 'from' is required"),
  invalidFrom: () => badRequest("Invalid 'from' user id"),
  toRequired: () => badRequest("The field 'to.user_id' is required"),
  invalidTo: () => badRequest("Invalid 'to' user id"),
  sameUser: () => badRequest('Sender and received must not be equals'),
  insecureEmail: () => badRequest("The field 'to.email' must be a secure email"),
  resourceRequired: () => badRequest("The field 'to.resource' is required"),
  invalidResource: () => badRequest("Invalid field 'to.resource'"),
  invalidResourceId: () => badRequest("Invalid field 'to.resource_id'"),
  siteRequired: () => badRequest("The field 'to.site_id' is required"),
  invalidSite: () => badRequest("The field 'to.site_id' has an invalid value"),
  textRequired: () => badRequest("The field 'text' is required"),
  textNotString: () => badRequest("The field 'text' must be a string"),
};

const absent = (v: unknown) => v === undefined || v === null;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A user id given as digits or a JSON integer; `allowZero` for the recipient. Undefined when malformed. */
export function userIdValue(v: unknown, allowZero: boolean): number | undefined {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^[0-9]{1,16}$/.test(v)) n = Number(v);
  else return undefined;
  if (!Number.isSafeInteger(n) || n < 0 || (n === 0 && !allowZero)) return undefined;
  return n;
}

/**
 * Shape checks, in this order (each the first failure wins):
 * body → from → from.user_id → to.user_id present → to.user_id valid → from ≠ to →
 * secure e-mail when to.user_id is 0 → to.resource → to.site_id → to.resource_id.
 */
export function parseSendRequest(body: unknown): SendRequest {
  const obj = requireObject(body);

  const from = obj.from;
  if (!isObject(from) || absent(from.user_id)) throw sendErrors.fromRequired();
  const fromUserId = userIdValue(from.user_id, false);
  if (fromUserId === undefined) throw sendErrors.invalidFrom();

  const to = obj.to;
  if (!isObject(to) || absent(to.user_id)) throw sendErrors.toRequired();
  const toUserId = userIdValue(to.user_id, true);
  if (toUserId === undefined) throw sendErrors.invalidTo();
  if (toUserId === fromUserId) throw sendErrors.sameUser();

  let toEmail: string | null = null;
  if (toUserId === 0) {
    if (typeof to.email !== 'string' || !SECURE_EMAIL.test(to.email)) throw sendErrors.insecureEmail();
    toEmail = to.email;
  }

  let legacy: SendRequest['legacy'] = null;
  if (!absent(to.resource) || !absent(to.resource_id) || !absent(to.site_id)) {
    if (absent(to.resource)) throw sendErrors.resourceRequired();
    if (to.resource !== 'orders') throw sendErrors.invalidResource();
    if (absent(to.site_id)) throw sendErrors.siteRequired();
    if (typeof to.site_id !== 'string' || !/^[A-Z]{3}$/.test(to.site_id)) throw sendErrors.invalidSite();
    let resourceId: number | null = null;
    if (!absent(to.resource_id)) {
      const id = userIdValue(to.resource_id, false);
      if (id === undefined) throw sendErrors.invalidResourceId();
      resourceId = id;
    }
    legacy = { siteId: to.site_id, resourceId };
  }

  return { fromUserId, toUserId, toEmail, legacy, text: obj.text, attachments: obj.attachments };
}

/** The text field before the text rules: required, a string. */
export function textField(text: unknown): string {
  if (absent(text)) throw sendErrors.textRequired();
  if (typeof text !== 'string') throw sendErrors.textNotString();
  return text;
}
