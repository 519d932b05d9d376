import type { FastifyInstance } from 'fastify';
import type { Service } from '../../service/index.js';

type Params = { user_id: string };

/** SPEC 4.1 and 4.2. */
export const usersRoutes = (service: Service) => async (app: FastifyInstance) => {
  // The token's own user: what the marketplace's client libraries call first (a static route wins over :user_id).
  app.get('/users/me', (req) => service.users.me(app.principal(req)));
  app.get<{ Params: Params }>('/users/:user_id', (req) => service.users.get(app.principal(req), req.params.user_id));

  app.get<{ Params: Params }>('/users/:user_id/stores/search', (req) => service.stores.search(app.principal(req), req.params.user_id, req.query));
};
