import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../service/auth/auth.js';
import type { Service } from '../../service/index.js';
import { guardFor, markReplay, messageCodec } from '../idempotency.js';

type PackParams = { pack_id: string; user_id: string };

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * GET /orders/{id} and SPEC 4.9-4.11. The send authenticates in `onRequest`, before the body is
 * parsed, so a request without a token gets "Access token is required" whatever its body (SPEC 5).
 */
export const messagesRoutes = (service: Service) => async (app: FastifyInstance) => {
  // The seller's (or buyer's) orders, paged: how a replica learns its packs.
  app.get('/orders/search', (req) => service.orderSearch.search(app.principal(req), req.query));

  app.get<{ Params: { order_id: string } }>('/orders/:order_id', (req) => service.orders.get(app.principal(req), req.params.order_id));

  // The answer is JSON bytes already (its messages built by SQLite, kept encoded): sent as they are, not serialized again.
  app.get<{ Params: PackParams }>('/messages/packs/:pack_id/sellers/:user_id', async (req, reply) => {
    const json = await service.messages.listJson(app.principal(req), req.params.pack_id, req.params.user_id, req.query);
    return reply.type(JSON_TYPE).send(json);
  });

  app.get<{ Params: { message_id: string } }>('/messages/:message_id', (req) =>
    service.messages.get(app.principal(req), req.params.message_id, req.headers['x-format-new']),
  );

  const senders = new WeakMap<FastifyRequest, Principal>();
  app.post<{ Params: PackParams }>(
    '/messages/packs/:pack_id/sellers/:user_id',
    {
      onRequest: async (req) => {
        senders.set(req, service.messages.authenticateSender(req.headers.authorization, req.query, req.headers['x-client-id']));
      },
    },
    async (req, reply) => {
      const sender = senders.get(req)!;
      const guard = guardFor(service, req, sender.userId, messageCodec);
      const message = await service.messages.send(sender, req.params.pack_id, req.params.user_id, req.query, req.body, guard);
      return markReplay(reply, guard).status(201).send(message);
    },
  );
};
