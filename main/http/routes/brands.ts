import type { FastifyInstance } from 'fastify';
import type { Service } from '../../service/index.js';

type Params = { user_id: string };

/** SPEC 4.7 and 4.8: a valid bearer token is required (401 otherwise), then the service's checks. */
export const brandsRoutes = (service: Service) => async (app: FastifyInstance) => {
  app.get<{ Params: Params }>('/users/:user_id/brands', (req) => service.brands.list(app.principal(req), req.params.user_id));

  app.get<{ Params: Params & { official_store_id: string } }>('/users/:user_id/brands/:official_store_id', (req) =>
    service.brands.get(app.principal(req), req.params.user_id, req.params.official_store_id),
  );
};
