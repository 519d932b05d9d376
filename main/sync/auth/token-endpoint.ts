import { request } from 'undici';
import { z } from 'zod';
import { OAuthError, RefreshFailedError } from './errors.js';
import { remoteAddressProblem } from '../../../common/remote-address.js';

/** What the token endpoint gives (RFC 6749 5.1), with the times seen by this app's clock. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  scope: string;
  userId: number;
  /** When the request was sent (ms): the lifetime is counted from here, on the safe side. */
  issuedAt: number;
  expiresAt: number;
}

const tokenResponse = z.object({
  access_token: z.string().min(1).max(4096),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z.number().positive(),
  refresh_token: z.string().min(1).max(4096),
  scope: z.string().optional(),
  user_id: z.number().int().positive(),
});
// RFC 6749 5.2 names the text error_description; the marketplace's own shape (SPEC) names it message.
const errorResponse = z.object({ error: z.string().min(1).max(100), error_description: z.string().optional(), message: z.string().optional() });

const MAX_BODY = 64 * 1024;

/** `baseUrl` + `path`, keeping a path prefix of the base (`https://host/api` + `oauth/token`). */
export function endpoint(baseUrl: string, path: string): URL {
  // The sign-in and the token exchange carry secrets: https only (plain http on this computer).
  const problem = remoteAddressProblem(baseUrl);
  if (problem) throw new OAuthError('invalid_request', problem, 400);
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL(path.replace(/^\//, ''), base);
}

function redact(text: string, secrets: string[]): string {
  let out = text.slice(0, 500);
  for (const s of secrets) if (s) out = out.split(s).join('[redacted]');
  return out;
}

/**
 * POST `{baseUrl}/oauth/token` with form parameters. Resolves with the tokens; rejects with
 * OAuthError when the server answers an OAuth error, RefreshFailedError when it could not be
 * asked or answered something else (network, timeout, 5xx, a malformed body).
 */
export async function requestTokens(
  baseUrl: string,
  params: Record<string, string | undefined>,
  options: { timeoutMs: number; now: () => number },
): Promise<TokenSet> {
  const form = new URLSearchParams();
  const secrets: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    form.set(k, v);
    if (k !== 'grant_type' && k !== 'client_id' && k !== 'redirect_uri') secrets.push(v);
  }
  const issuedAt = options.now();
  let status: number;
  let text: string;
  try {
    const res = await request(endpoint(baseUrl, 'oauth/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    status = res.statusCode;
    text = await readCapped(res.body);
  } catch (e) {
    const err = e as { name?: string; code?: string };
    throw new RefreshFailedError(`The token endpoint could not be reached (${err.code ?? err.name ?? 'network error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RefreshFailedError(`The token endpoint answered ${status} without JSON`);
  }
  if (status === 200) {
    const ok = tokenResponse.safeParse(json);
    if (!ok.success) throw new RefreshFailedError('The token endpoint answered 200 with an unexpected body');
    const t = ok.data;
    return {
      accessToken: t.access_token,
      refreshToken: t.refresh_token,
      scope: t.scope ?? '',
      userId: t.user_id,
      issuedAt,
      expiresAt: issuedAt + Math.floor(t.expires_in * 1000),
    };
  }
  const err = errorResponse.safeParse(json);
  if (err.success && status >= 400 && status < 500) {
    throw new OAuthError(err.data.error, redact(err.data.error_description ?? err.data.message ?? '', secrets), status);
  }
  throw new RefreshFailedError(`The token endpoint answered ${status}`);
}

async function readCapped(body: AsyncIterable<Buffer | Uint8Array> & { destroy?: () => void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BODY) {
      body.destroy?.();
      throw new Error('response too large');
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
