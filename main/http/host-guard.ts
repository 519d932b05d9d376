import type { FastifyReply, FastifyRequest } from 'fastify';
import { isIP } from 'node:net';

/**
 * The DNS-rebinding guard of the sign-in page and the token endpoint (the bridge has its own,
 * main/web/server.ts). A page on a name the attacker controls, made to resolve to this computer,
 * is same-origin with the API and sends `Host: <that name>`; addresses cannot be rebound, so an
 * IP literal, `localhost` or a name the operator configured is answered and any other name is 421.
 * The rest of the API needs a bearer token such a page does not have.
 */
export function hostAllowed(header: string | undefined, names: ReadonlySet<string>): boolean {
  if (header === undefined || header === '') return false;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(header);
  if (!m) return false;
  const host = m[1]!.toLowerCase();
  if (host.startsWith('[')) return isIP(host.slice(1, -1)) === 6;
  return isIP(host) === 4 || host === 'localhost' || names.has(host);
}

/** A Fastify onRequest hook refusing other Host names with 421 in the spec's shape. */
export function hostGuard(allowedHosts: readonly string[] = []) {
  const names = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (hostAllowed(req.headers.host, names)) return done();
    void reply
      .status(421)
      .header('cache-control', 'no-store')
      .send({ error: 'wrong_host', message: 'This server answers sign-in on its own address or localhost only', status: 421, cause: [] });
  };
}
