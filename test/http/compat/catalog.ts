import { demo } from '../../support/fixtures.js';
import { demoMessages, demoOrders } from '../../support/messages.js';
import { type SdkRequest, goSdk, phpLegacy, phpSdk } from './sdk-requests.js';

/** What a call needs from the running server: tokens, a stock version read just before. */
export interface CallContext {
  token: string;
  brandToken: string;
  /** A seller without warehouse_management or brands: the ordinary listing flow. */
  plainToken: string;
  /** The current `x-version` of a user product (read with a Bearer call just before). */
  version(userProduct: string): Promise<string>;
}

export type Sdk = 'go' | 'php' | 'php-legacy';

export interface SdkCall {
  id: string;
  sdk: Sdk;
  /** What the call is, as docs/compatibility.md names it. */
  name: string;
  request(ctx: CallContext): Promise<SdkRequest> | SdkRequest;
  /** The status the server answers now. */
  status: number;
}

/** The seller the SDKs' own listing calls need (added to the demo fixtures by the test). */
export const PLAIN_SELLER = { id: 1780493299, token: 'APP_USR-5503910054141466-plain-seller' } as const;

const S = demo.seller.id;
const B = demo.brand.id;
const UP = demo.userProducts;
const PACK = demoOrders.packed.pack;
const ORDER = demoOrders.packed.id;

const multiwarehouseItem = () => ({
  title: 'Termo acero 1.5L',
  category_id: 'MLA1902',
  price: 52999,
  currency_id: 'ARS',
  listing_type_id: 'gold_special',
  channels: ['marketplace'],
  stock_locations: [{ store_id: demo.stores.palermo, network_node_id: 'ARBA01P', quantity: 3 }],
});
const warehouseBody = { locations: [{ store_id: demo.stores.palermo, network_node_id: 'ARBA01P', quantity: 15 }] };
const messageBody = { from: { user_id: String(S) }, to: { user_id: String(demo.buyer.id) }, text: 'Hola, ¿te llegó bien el termo?' };

/** main.go's postItem body, as the Go SDK's sample sends it. */
const GO_SAMPLE_ITEM =
  '{"title":"Item de test - No Ofertar","category_id":"MLA1912","price":10,"currency_id":"ARS","available_quantity":1,"buying_mode":"buy_it_now","listing_type_id":"bronze","condition":"new","description": "Item:,  Ray-Ban WAYFARER Gloss Black RB2140 901  Model: RB2140. Size: 50mm. Name: WAYFARER. Color: Gloss Black. Includes Ray-Ban Carrying Case and Cleaning Cloth. New in Box","video_id": "YOUTUBE_ID_HERE","warranty": "12 months by Ray Ban","pictures":[{"source":"http://upload.wikimedia.org/wikipedia/commons/f/fd/Ray_Ban_Original_Wayfarer.jpg"},{"source":"http://en.wikipedia.org/wiki/File:Teashades.gif"}]}';

/** What PHP SDK 3's Item model serializes (only the fields set): its README's item. */
const PHP_ITEM = {
  title: 'Item de test - No Ofertar',
  category_id: 'MLA5991',
  price: 350,
  currency_id: 'ARS',
  available_quantity: 12,
  buying_mode: 'buy_it_now',
  listing_type_id: 'bronze',
  condition: 'new',
  description: 'Item de test - No Ofertar',
  video_id: 'RXWn6kftTHY',
  pictures: [{ source: 'https://http2.mlstatic.com/D_NQ_NP_791292-MLA40225545298_122019-O.webp' }],
  attributes: [{ id: 'BRAND', value_name: 'Marca del producto' }],
};

/** One way to make a request per SDK: its own API for GET/POST/PUT/DELETE with the token it holds. */
type Verb = 'GET' | 'POST' | 'PUT' | 'DELETE';
function via(sdk: Sdk, verb: Verb, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): SdkRequest {
  const json = body === undefined ? '' : JSON.stringify(body);
  if (sdk === 'go') {
    if (verb === 'GET') return goSdk.get(path, token);
    if (verb === 'POST') return goSdk.post(path, json, token);
    if (verb === 'PUT') return goSdk.put(path, json, token, headers);
    return goSdk.delete(path, token);
  }
  if (sdk === 'php') return phpSdk.rest(verb, path.replace(/^\//, ''), token, body, headers);
  const [p, q] = path.split('?') as [string, string | undefined];
  const params = { ...Object.fromEntries(new URLSearchParams(q ?? '')), access_token: token };
  if (verb === 'GET') return phpLegacy.get(p, params);
  if (verb === 'POST') return phpLegacy.post(p, body, params);
  if (verb === 'PUT') return phpLegacy.put(p, body, params);
  return phpLegacy.delete(p, params);
}

/** The calls every SDK can make the same way, by SPEC section (or the marketplace call we serve). */
const common: { key: string; name: string; status: number; make(sdk: Sdk, ctx: CallContext): Promise<SdkRequest> | SdkRequest; only?: Sdk[] }[] = [
  { key: 'me', name: 'GET /users/me', status: 200, make: (s, c) => via(s, 'GET', '/users/me', c.token) },
  { key: 'user', name: 'GET /users/{id} (4.1)', status: 200, make: (s, c) => via(s, 'GET', `/users/${S}`, c.token) },
  {
    key: 'stores',
    name: 'GET /users/{id}/stores/search?tags=stock_location (4.2)',
    status: 200,
    make: (s, c) => via(s, 'GET', `/users/${S}/stores/search?tags=stock_location`, c.token),
  },
  {
    key: 'create',
    name: 'POST /items/multiwarehouse (4.3)',
    status: 201,
    make: (s, c) => via(s, 'POST', '/items/multiwarehouse', c.token, multiwarehouseItem()),
  },
  { key: 'stock', name: 'GET /user-products/{id}/stock (4.4)', status: 200, make: (s, c) => via(s, 'GET', `/user-products/${UP.termo}/stock`, c.token) },
  {
    key: 'warehouse-no-version',
    name: "PUT .../stock/type/seller_warehouse, the SDK's own PUT (no x-version) (4.5)",
    status: 400,
    make: (s, c) => via(s, 'PUT', `/user-products/${UP.termo}/stock/type/seller_warehouse`, c.token, warehouseBody),
  },
  {
    key: 'warehouse',
    name: "PUT .../stock/type/seller_warehouse with x-version from the SDK's extension point (4.5)",
    status: 200,
    only: ['go', 'php'],
    make: async (s, c) =>
      via(s, 'PUT', `/user-products/${UP.termo}/stock/type/seller_warehouse`, c.token, warehouseBody, { 'x-version': await c.version(UP.termo) }),
  },
  {
    key: 'selling-address',
    name: "PUT .../stock/type/selling_address with x-version from the SDK's extension point (4.6)",
    status: 204,
    only: ['go', 'php'],
    make: async (s, c) =>
      via(s, 'PUT', `/user-products/${UP.mate}/stock/type/selling_address`, c.token, { quantity: 7 }, { 'x-version': await c.version(UP.mate) }),
  },
  { key: 'brands', name: 'GET /users/{id}/brands (4.7)', status: 200, make: (s, c) => via(s, 'GET', `/users/${B}/brands`, c.brandToken) },
  {
    key: 'brand',
    name: 'GET /users/{id}/brands/{official_store_id} (4.8)',
    status: 200,
    make: (s, c) => via(s, 'GET', `/users/${B}/brands/4021`, c.brandToken),
  },
  {
    key: 'pack',
    name: 'GET /messages/packs/{pack}/sellers/{id} (4.9)',
    status: 200,
    make: (s, c) => via(s, 'GET', `/messages/packs/${PACK}/sellers/${S}?limit=5`, c.token),
  },
  { key: 'message', name: 'GET /messages/{id} (4.10)', status: 200, make: (s, c) => via(s, 'GET', `/messages/${demoMessages.buyerQuestion}`, c.token) },
  {
    key: 'send',
    name: 'POST /messages/packs/{pack}/sellers/{id}?tag=post_sale&application_id= (4.11)',
    status: 201,
    make: (s, c) => via(s, 'POST', `/messages/packs/${PACK}/sellers/${S}?tag=post_sale&application_id=${demo.app}`, c.token, messageBody),
  },
  { key: 'order', name: 'GET /orders/{id}', status: 200, make: (s, c) => via(s, 'GET', `/orders/${ORDER}`, c.token) },
  { key: 'orders', name: 'GET /orders/search?seller={id}', status: 200, make: (s, c) => via(s, 'GET', `/orders/search?seller=${S}&sort=date_desc`, c.token) },
  { key: 'item', name: 'GET /items/{id}', status: 200, make: (s, c) => via(s, 'GET', `/items/${demo.items.termo}`, c.token) },
  { key: 'items', name: 'GET /items?ids=A,B', status: 200, make: (s, c) => via(s, 'GET', `/items?ids=${demo.items.termo},${demo.items.mate}`, c.token) },
  { key: 'item-search', name: 'GET /users/{id}/items/search', status: 200, make: (s, c) => via(s, 'GET', `/users/${S}/items/search`, c.token) },
  {
    key: 'item-put',
    name: 'PUT /items/{id} {available_quantity} (older stock call)',
    status: 200,
    make: (s, c) => via(s, 'PUT', `/items/${demo.items.mate}`, c.token, { available_quantity: 6 }),
  },
  {
    key: 'item-delete',
    name: 'DELETE /items/{id} (SDK README; no such call in the spec)',
    status: 405,
    make: (s, c) => via(s, 'DELETE', `/items/${demo.items.termo}`, c.token),
  },
  { key: 'sites', name: 'GET /sites (Go SDK sample; outside the spec)', status: 404, make: (s, c) => via(s, 'GET', '/sites', c.token), only: ['go'] },
  {
    key: 'addresses',
    name: 'GET /users/{id}/addresses (Go SDK sample; outside the spec)',
    status: 404,
    make: (s, c) => via(s, 'GET', `/users/${S}/addresses`, c.token),
    only: ['go'],
  },
  {
    key: 'categories',
    name: 'GET /sites/{site}/categories (PHP CategoriesApi; outside the spec)',
    status: 404,
    make: (s, c) => via(s, 'GET', '/sites/MLA/categories', c.token),
    only: ['php'],
  },
  {
    key: 'category',
    name: 'GET /categories/{id} (PHP CategoriesApi; outside the spec)',
    status: 404,
    make: (s, c) => via(s, 'GET', '/categories/MLA1912', c.token),
    only: ['php'],
  },
  {
    key: 'health',
    name: 'GET /items/{id}/health (PHP ItemsHealthApi; outside the spec)',
    status: 404,
    make: (s, c) => via(s, 'GET', `/items/${demo.items.termo}/health`, c.token),
    only: ['php'],
  },
  {
    key: 'questions',
    name: 'DELETE /questions/{id} (PHP legacy README; outside the spec)',
    status: 404,
    make: (s, c) => via(s, 'DELETE', '/questions/123', c.token),
    only: ['php-legacy'],
  },
];

/** Every call of the three SDKs the compatibility table lists, in its order. */
export function sdkCalls(): SdkCall[] {
  const out: SdkCall[] = [];
  for (const sdk of ['go', 'php', 'php-legacy'] as const) {
    for (const c of common) {
      if (c.only && !c.only.includes(sdk)) continue;
      out.push({ id: `${sdk}:${c.key}`, sdk, name: c.name, status: c.status, request: (ctx) => c.make(sdk, ctx) });
    }
  }
  // Calls one SDK has and the others do not.
  out.push(
    {
      id: 'go:items-post-slash',
      sdk: 'go',
      name: "POST /items/ (trailing slash, the Go SDK's sample item, by a brand user of two stores: SPEC 7.4)",
      status: 400,
      request: (c) => goSdk.post('/items/', GO_SAMPLE_ITEM, c.brandToken),
    },
    {
      id: 'go:items-post',
      sdk: 'go',
      name: "POST /items (the Go SDK's sample item, by a plain seller)",
      status: 201,
      request: (c) => goSdk.post('/items', GO_SAMPLE_ITEM, c.plainToken),
    },
    {
      id: 'php:items-post',
      sdk: 'php',
      name: 'POST /items (ItemsApi::itemsPost with its Item model, by a plain seller)',
      status: 201,
      request: (c) => phpSdk.rest('POST', 'items', c.plainToken, PHP_ITEM),
    },
    {
      id: 'php-legacy:items-post',
      sdk: 'php-legacy',
      name: "POST /items (the PHP SDK 2 README's item, by a plain seller)",
      status: 201,
      request: (c) => phpLegacy.post('/items', PHP_ITEM, { access_token: c.plainToken }),
    },
    {
      id: 'php:item-get-public',
      sdk: 'php',
      name: 'GET /items/{id} without a token (ItemsApi::itemsIdGet)',
      status: 401,
      request: () => phpSdk.itemGet(demo.items.termo),
    },
    { id: 'php-legacy:options', sdk: 'php-legacy', name: 'OPTIONS /items (Meli::options)', status: 204, request: () => phpLegacy.options('/items') },
    {
      id: 'php-legacy:options-unknown',
      sdk: 'php-legacy',
      name: 'OPTIONS /sites (Meli::options; outside the spec)',
      status: 404,
      request: () => phpLegacy.options('/sites'),
    },
  );
  return out;
}
