import type { FastifyInstance } from 'fastify';
import type { Service } from '../../service/index.js';

/** The ordinary item-publishing flow (POST /items); the multi-warehouse flow lives in stock.ts. */
export const itemsRoutes = (service: Service) => async (app: FastifyInstance) => {
  app.post('/items', async (req, reply) => {
    const item = await service.publish.create(app.principal(req), req.body);
    return reply.status(201).send(item);
  });

  // The seller's item ids, paged (real-marketplace style): how a replica finds its user products.
  app.get<{ Params: { user_id: string } }>('/users/:user_id/items/search', (req) =>
    service.itemSearch.search(app.principal(req), req.params.user_id, req.query),
  );
};
