import type { FastifyInstance } from 'fastify';
import type { Service } from '../../service/index.js';
import { answeredByOwnWrite } from '../durability.js';
import { guardFor, markReplay, sellerWarehouseCodec, sellingAddressCodec } from '../idempotency.js';

type UpParams = { user_product_id: string };

/** SPEC 4.3-4.6 and the older item update. */
export const stockRoutes = (service: Service) => async (app: FastifyInstance) => {
  app.post('/items/multiwarehouse', async (req, reply) => {
    const item = await service.items.createMultiwarehouse(app.principal(req), req.body);
    return reply.status(201).send(item);
  });

  app.get<{ Params: { item_id: string } }>('/items/:item_id', (req) => service.items.get(app.principal(req), req.params.item_id));

  app.put<{ Params: { item_id: string } }>('/items/:item_id', (req) =>
    service.items.legacyUpdate(app.principal(req), req.params.item_id, req.body),
  );

  app.get<{ Params: UpParams }>('/user-products/:user_product_id/stock', async (req, reply) => {
    const { stock, version } = service.stock.read(app.principal(req), req.params.user_product_id);
    return reply.header('x-version', version.toString()).send(stock);
  });

  app.put<{ Params: UpParams & { type: string } }>('/user-products/:user_product_id/stock/type/:type', async (req, reply) => {
    const principal = app.principal(req);
    const { user_product_id: id, type } = req.params;
    const version = req.headers['x-version'];
    // X-Idempotency-Key (main/service/idempotency): a retry replays the first success.
    if (type === 'seller_warehouse') {
      const guard = guardFor(service, req, principal.userId, sellerWarehouseCodec);
      const result = await service.stock.putSellerWarehouse(principal, id, version, req.body, guard);
      answeredByOwnWrite(req);
      return markReplay(reply, guard).header('x-version', result.version.toString()).send(result.stock);
    }
    if (type === 'selling_address') {
      const guard = guardFor(service, req, principal.userId, sellingAddressCodec);
      const result = await service.stock.putSellingAddress(principal, id, version, req.body, guard);
      answeredByOwnWrite(req);
      return markReplay(reply, guard).header('x-version', result.version.toString()).status(204).send();
    }
    return service.stock.rejectType(type);
  });
};
