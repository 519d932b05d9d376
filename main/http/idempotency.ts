import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { IdempotencyGuard, ResponseCodec, StoredResponse } from '../service/idempotency/idempotency.js';
import { IDEMPOTENCY_HEADER, REPLAY_HEADER } from '../service/idempotency/idempotency.js';
import type { Service } from '../service/index.js';
import type { StockJson } from '../service/stock/locations.js';
import type { WriteCaller } from '../service/stock/stock.js';
import type { MessageView } from '../service/messages/views.js';

/** "PUT /user-products/X/stock/type/seller_warehouse": the route of a request (no query string). */
export const routeOf = (req: FastifyRequest) => `${req.method} ${req.url.split('?')[0]}`;

/**
 * What a key is bound to: the route, and for a request with a parsed body a digest of the body and
 * the `x-version` it was based on. The same key with another request is refused (422), as the IETF
 * idempotency-key draft and Stripe do, instead of replaying an answer to a different request.
 * A streamed upload is bound to its route and its file (uploadBinding), once the file is read.
 */
export function bindingOf(req: FastifyRequest): string {
  const route = routeOf(req);
  if (req.body === undefined || req.body === null) return route;
  const version = req.headers['x-version'];
  const digest = createHash('sha256')
    .update(`${typeof version === 'string' ? version : ''}\n${JSON.stringify(req.body)}`)
    .digest('hex')
    .slice(0, 32);
  return `${route} #${digest}`;
}

/** What an upload's key is bound to: the route and a digest of the file's name and content. */
export function uploadBinding(route: string, file: { name: string; sha256: string }): string {
  return `${route} #${createHash('sha256').update(`${file.name}\n${file.sha256}`).digest('hex').slice(0, 32)}`;
}

/**
 * The guard for a request carrying `X-Idempotency-Key`, or undefined without the header
 * (400 for a malformed key). Call after authentication: keys are scoped per user.
 */
export function guardFor<T>(service: Service, req: FastifyRequest, userId: number, codec: ResponseCodec<T>): IdempotencyGuard<T> | undefined {
  const key = service.idempotency.parseKey(req.headers[IDEMPOTENCY_HEADER]);
  return key === null ? undefined : service.idempotency.guard(userId, key, bindingOf(req), codec);
}

/**
 * The caller of a stock write, for the service to resolve inside the write: the bearer token first
 * (401), then the X-Idempotency-Key for that user (400 when malformed). The guard is kept on the
 * caller once made, for the answer's replay mark.
 */
export function writeCaller<T>(app: FastifyInstance, service: Service, req: FastifyRequest, codec: ResponseCodec<T>) {
  const caller: WriteCaller<T> & { guard?: IdempotencyGuard<T> | undefined } = () => {
    const principal = app.principal(req);
    caller.guard = guardFor(service, req, principal.userId, codec);
    return { principal, guard: caller.guard };
  };
  return caller;
}

/** Marks a replayed answer. */
export function markReplay(reply: FastifyReply, guard: { replayed: boolean } | undefined): FastifyReply {
  return guard?.replayed ? reply.header(REPLAY_HEADER, 'true') : reply;
}

/** Sends a stored answer as it was first sent. */
export function sendStored(reply: FastifyReply, stored: StoredResponse): FastifyReply {
  reply.header(REPLAY_HEADER, 'true');
  if (stored.version !== null) reply.header('x-version', stored.version);
  if (stored.body === null) return reply.status(stored.status).send();
  return reply.status(stored.status).header('content-type', 'application/json; charset=utf-8').send(stored.body);
}

/** PUT .../seller_warehouse: 200, the stock, x-version. */
export const sellerWarehouseCodec: ResponseCodec<StockJson> = {
  encode: ({ json, version }) => ({ status: 200, body: json, version: version.toString() }),
  decode: (s) => ({ json: s.body ?? '{}', version: BigInt(s.version ?? '0') }),
};

/** PUT .../selling_address: 204, no body, x-version. */
export const sellingAddressCodec: ResponseCodec<bigint> = {
  encode: (version) => ({ status: 204, body: null, version: version.toString() }),
  decode: (s) => BigInt(s.version ?? '0'),
};

/** POST /messages/packs/...: 201, the message. */
export const messageCodec: ResponseCodec<MessageView> = {
  encode: (message) => ({ status: 201, body: JSON.stringify(message), version: null }),
  decode: (s) => JSON.parse(s.body ?? '{}') as MessageView,
};
