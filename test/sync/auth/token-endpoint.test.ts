import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthError } from '../../../main/sync/auth/errors.js';
import { requestTokens } from '../../../main/sync/auth/token-endpoint.js';

/** A token endpoint on 127.0.0.1 that answers every request with `status` and `body`. */
async function endpointAnswering(status: number, body: unknown): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('requestTokens: how a refusal of the token endpoint is read', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const refusal = async (status: number, body: unknown): Promise<OAuthError> => {
    const e = await endpointAnswering(status, body);
    server = e.server;
    const err = await requestTokens(
      e.url,
      { grant_type: 'refresh_token', client_id: '1', refresh_token: 'TG-secret' },
      { timeoutMs: 5000, now: Date.now },
    ).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(OAuthError);
    return err as OAuthError;
  };

  it("takes RFC 6749's error_description", async () => {
    const err = await refusal(400, { error: 'invalid_grant', error_description: 'The refresh token was revoked' });
    expect(err.code).toBe('invalid_grant');
    expect(err.description).toBe('The refresh token was revoked');
  });

  it("takes the marketplace's own shape ({ error, message, status, cause }), the secret sent redacted", async () => {
    const err = await refusal(400, { message: 'Error validating grant: TG-secret expired', error: 'invalid_grant', status: 400, cause: [] });
    expect(err.code).toBe('invalid_grant');
    expect(err.status).toBe(400);
    expect(err.description).toBe('Error validating grant: [redacted] expired');
  });
});
