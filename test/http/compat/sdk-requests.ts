import { request } from 'undici';

/**
 * The requests of the marketplace's public SDKs, byte for byte where it matters (method, path and
 * query, headers, body), rebuilt from their sources so no Go or PHP toolchain is needed:
 * - Go: github.com/mercadolibre/golang-sdk, sdk/meli.go (net/http; the token always as the
 *   `access_token` query parameter; PUT without a Content-Type; the token call's parameters in
 *   the query string with an empty `application/json` body).
 * - PHP: github.com/mercadolibre/php-sdk, lib/Api/*.php (Guzzle, OpenAPI generated: Accept and
 *   Content-Type `application/json` on every call, GET and DELETE included; the resource path
 *   rawurlencoded and `? = & { } ,` `/` put back; the token call as a form).
 * - PHP legacy: the same repository's Meli/meli.php 2.0.0 (curl; the token call's fields as a
 *   curl array, which curl sends as multipart/form-data; `options()` sends OPTIONS).
 */
export interface SdkRequest {
  method: string;
  /** Path and query, exactly as the SDK puts them on the request line. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface SdkResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // Response bodies are untyped JSON asserted field by field, as in test/support/server.ts.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** Sends `r` to `baseUrl` with undici as it is: no header added beyond Host and Content-Length. */
export async function send(baseUrl: string, r: SdkRequest): Promise<SdkResponse> {
  const res = await request(baseUrl + r.path, { method: r.method as 'GET', headers: r.headers, body: r.body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** PHP's json_encode: `/` as `\/`, every non-ASCII character as \uXXXX. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Go's url.QueryEscape (spaces as +). */
const goEscape = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

/** meli.go's AuthorizationURL.add: `?` for the first parameter, `&` after. */
const goAdd = (url: string, pair: string) => `${url}${url.includes('?') ? '&' : '?'}${pair}`;

const GO_HEADERS = { 'user-agent': 'Go-http-client/1.1', 'accept-encoding': 'gzip' };

export const goSdk = {
  /** client.Get(path): http.Get with `access_token` appended. */
  get: (path: string, token: string): SdkRequest => ({ method: 'GET', path: goAdd(path, `access_token=${goEscape(token)}`), headers: { ...GO_HEADERS } }),
  /** client.Post(path, body): http.Post(url, "application/json", body). */
  post: (path: string, body: string, token: string): SdkRequest => ({
    method: 'POST',
    path: goAdd(path, `access_token=${goEscape(token)}`),
    headers: { ...GO_HEADERS, 'content-type': 'application/json' },
    body,
  }),
  /** client.Put(path, body): http.NewRequest(PUT) with no Content-Type; `extra` is what a custom HTTPClient adds. */
  put: (path: string, body: string, token: string, extra: Record<string, string> = {}): SdkRequest => ({
    method: 'PUT',
    path: goAdd(path, `access_token=${goEscape(token)}`),
    headers: { ...GO_HEADERS, ...extra },
    body,
  }),
  delete: (path: string, token: string): SdkRequest => ({ method: 'DELETE', path: goAdd(path, `access_token=${goEscape(token)}`), headers: { ...GO_HEADERS } }),
  /** authorize() and RefreshToken(): every parameter in the query, an empty application/json body. */
  token: (params: [string, string][]): SdkRequest => ({
    method: 'POST',
    path: params.reduce((url, [k, v]) => goAdd(url, `${k}=${goEscape(v)}`), '/oauth/token'),
    headers: { ...GO_HEADERS, 'content-type': 'application/json', 'content-length': '0' },
  }),
  /** GetAuthURL(clientID, site, callback). */
  authUrl: (clientId: string, callback: string) => `/authorization?response_type=code&client_id=${clientId}&redirect_uri=${goEscape(callback)}`,
};

/** ObjectSerializer::toPathValue (rawurlencode) and the characters RestClientApi puts back. */
function phpResourcePath(resource: string): { path: string; hasQuery: boolean } {
  const encoded = `/${encodeURIComponent(resource).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  let path = encoded;
  for (const [from, to] of [
    ['%3F', '?'],
    ['%3D', '='],
    ['%26', '&'],
    ['%7B', '{'],
    ['%7D', '}'],
    ['%2C', ','],
  ] as const) {
    path = path.split(from).join(to);
  }
  const hasQuery = path !== encoded;
  return { path: path.split('%2F').join('/'), hasQuery };
}

const PHP_HEADERS = { 'user-agent': 'MELI-PHP-SDK-3.0.0', accept: 'application/json', 'content-type': 'application/json' };

export const phpSdk = {
  /** RestClientApi::resource{Get,Delete,Post,Put}($resource, $access_token[, $body]); `extra` is a Guzzle client's default headers. */
  rest(method: 'GET' | 'DELETE' | 'POST' | 'PUT', resource: string, token: string, body?: unknown, extra: Record<string, string> = {}): SdkRequest {
    const { path, hasQuery } = phpResourcePath(resource);
    const query = `access_token=${encodeURIComponent(token)}`;
    return {
      method,
      path: `${path}${hasQuery ? '&' : '?'}${query}`,
      headers: { ...extra, ...PHP_HEADERS },
      ...(body === undefined ? {} : { body: phpJson(body) }),
    };
  },
  /** ItemsApi::itemsIdGet($id): no token at all. */
  itemGet: (id: string): SdkRequest => ({ method: 'GET', path: `/items/${encodeURIComponent(id)}`, headers: { ...PHP_HEADERS } }),
  /** OAuth20Api::getToken(...): a form, Accept application/json. */
  token: (params: [string, string][]): SdkRequest => ({
    method: 'POST',
    path: '/oauth/token',
    headers: { 'user-agent': 'MELI-PHP-SDK-3.0.0', accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  }),
};

const LEGACY_UA = { 'user-agent': 'MELI-PHP-SDK-2.0.0', accept: '*/*' };

/** make_path: `$param=$value` joined with `&`, values as given (not encoded). */
const legacyPath = (path: string, params: Record<string, string>) => {
  const p = path.startsWith('/') ? path : `/${path}`;
  const q = Object.entries(params).map(([k, v]) => `${k}=${v}`);
  return q.length ? `${p}?${q.join('&')}` : p;
};

/** curl's multipart/form-data for CURLOPT_POSTFIELDS given an array. */
function curlMultipart(fields: [string, string][]): { body: Uint8Array; contentType: string } {
  const boundary = '------------------------d74496d66958873e';
  const parts = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { body: new TextEncoder().encode(`${parts.join('')}--${boundary}--\r\n`), contentType: `multipart/form-data; boundary=${boundary}` };
}

export const phpLegacy = {
  get: (path: string, params: Record<string, string>): SdkRequest => ({ method: 'GET', path: legacyPath(path, params), headers: { ...LEGACY_UA } }),
  post: (path: string, body: unknown, params: Record<string, string>): SdkRequest => ({
    method: 'POST',
    path: legacyPath(path, params),
    headers: { ...LEGACY_UA, 'content-type': 'application/json' },
    body: phpJson(body),
  }),
  put: (path: string, body: unknown, params: Record<string, string>): SdkRequest => ({
    method: 'PUT',
    path: legacyPath(path, params),
    headers: { ...LEGACY_UA, 'content-type': 'application/json' },
    body: phpJson(body),
  }),
  delete: (path: string, params: Record<string, string>): SdkRequest => ({ method: 'DELETE', path: legacyPath(path, params), headers: { ...LEGACY_UA } }),
  options: (path: string, params: Record<string, string> = {}): SdkRequest => ({
    method: 'OPTIONS',
    path: legacyPath(path, params),
    headers: { ...LEGACY_UA },
  }),
  /** authorize() and refreshAccessToken(): the fields as a curl array, so multipart/form-data. */
  token(fields: [string, string][]): SdkRequest {
    const { body, contentType } = curlMultipart(fields);
    return { method: 'POST', path: '/oauth/token', headers: { ...LEGACY_UA, 'content-type': contentType }, body };
  },
};
