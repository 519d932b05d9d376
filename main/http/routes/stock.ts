import type { FastifyInstance } from 'fastify';
import type { Service } from '../../service/index.js';
import { answeredByOwnWrite } from '../durability.js';
import { markReplay, sellerWarehouseCodec, sellingAddressCodec, writeCaller } from '../idempotency.js';

type UpParams = { user_product_id: string };

/** Stock answers are JSON text already (built by SQLite): sent as they are, not serialized again. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** SPEC 4.3-4.6 and the older item update. */
export const stockRoutes = (service: Service) => async (app: FastifyInstance) => {
  app.post('/items/multiwarehouse', async (req, reply) => {
    const item = await service.items.createMultiwarehouse(app.principal(req), req.body);
    return reply.status(201).send(item);
  });

  // The multi-get of items (up to 20 ids): a first pull's listings in one request per 20.
  app.get<{ Querystring: { ids?: unknown } }>('/items', (req) => service.items.multiGet(app.principal(req), req.query.ids));

  app.get<{ Params: { item_id: string } }>('/items/:item_id', (req) => service.items.get(app.principal(req), req.params.item_id));

  app.put<{ Params: { item_id: string } }>('/items/:item_id', (req) => service.items.legacyUpdate(app.principal(req), req.params.item_id, req.body));

  // Synchronous: no promise to settle on the API's most frequent read (a throw is answered alike).
  app.get<{ Params: UpParams }>('/user-products/:user_product_id/stock', (req, reply) => {
    const { json, version } = service.stock.read(app.principal(req), req.params.user_product_id);
    void reply.header('x-version', version.toString()).type(JSON_TYPE).send(json);
  });

  // The caller is resolved inside the write (WriteCaller): 401 still comes before anything else.
  app.put<{ Params: UpParams & { type: string } }>('/user-products/:user_product_id/stock/type/:type', async (req, reply) => {
    const { user_product_id: id, type } = req.params;
    const version = req.headers['x-version'];
    if (type === 'seller_warehouse') {
      const caller = writeCaller(app, service, req, sellerWarehouseCodec);
      const { json, version: next } = await service.stock.putSellerWarehouse(caller, id, version, req.body);
      answeredByOwnWrite(req);
      return markReplay(reply, caller.guard).header('x-version', next.toString()).type(JSON_TYPE).send(json);
    }
    if (type === 'selling_address') {
      const caller = writeCaller(app, service, req, sellingAddressCodec);
      const result = await service.stock.putSellingAddress(caller, id, version, req.body);
      answeredByOwnWrite(req);
      return markReplay(reply, caller.guard).header('x-version', result.version.toString()).status(204).send();
    }
    app.principal(req);
    return service.stock.rejectType(type);
  });
};
