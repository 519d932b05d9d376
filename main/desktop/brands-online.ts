import { z } from 'zod';
import type { BrandAccountView, BrandDetailView, BrandListView } from '../../common/views.js';
import { type BrandAccountRow, brandAccountsRepo } from '../db/repos/brand-accounts.js';
import { ServiceError, isServiceError } from '../service/errors.js';
import { type RemoteClient, RemoteError, remoteError } from '../sync/client.js';
import { brandDetail, brandListEntry, parseAnswer, userAnswer } from '../sync/remote-answers.js';
import { mapLimit } from '../sync/pull.js';
import type { Profile } from './profile.js';

/**
 * Brands on a replica (issue 15 §4). The mirror holds only the seller's own official stores (and
 * the users linked to them), so a brand account looked up by id is read from the marketplace while
 * online; offline, or when the marketplace cannot be reached, the mirror answers as before.
 */

/** GET /users/{id}/brands (SPEC 2.7, 4.7). */
const brandListAnswer = z.object({
  status: z.string(),
  cust_id: z.number().int().nonnegative(),
  site_id: z.string(),
  user_type: z.string(),
  brands: z.array(brandListEntry),
  tags: z.array(z.string()),
}) satisfies z.ZodType<NonNullable<BrandListView['list']>>;

/** The profile's remote client when reads should go to the marketplace, else null (demo data, offline, signed out). */
export function onlineClient(p: Pick<Profile, 'kind' | 'remote' | 'engine'>): RemoteClient | null {
  return p.kind === 'remote' && p.remote !== null && p.engine.mode === 'online' ? p.remote : null;
}

/** Unreachable, timed out, or a 5xx: the caller falls back to the mirror. */
class Unreachable extends Error {}

async function remoteGet<S extends z.ZodType>(client: RemoteClient, path: string, schema: S): Promise<{ status: 404; body: unknown } | z.infer<S>> {
  let res;
  try {
    res = await client.request('GET', path);
  } catch (e) {
    if (e instanceof RemoteError || !isServiceError(e)) throw new Unreachable(String(e));
    throw e;
  }
  if (res.status >= 500) throw new Unreachable(`HTTP ${res.status}`);
  if (res.status === 200) return parseAnswer(schema, res.body, `GET ${path}`);
  if (res.status === 404 && isB00001(res.body)) return { status: 404 as const, body: res.body };
  throw remoteError(res);
}

const isB00001 = (body: unknown) => typeof body === 'object' && body !== null && 'error' in body && body.error === 'B00001';
const isNotFoundAnswer = (v: unknown): v is { status: 404; body: unknown } =>
  typeof v === 'object' && v !== null && 'status' in v && v.status === 404 && 'body' in v;

/** The brand list of `userId` from the marketplace; null for "no brand" (404 B00001); undefined when it cannot be reached. */
export async function remoteBrandList(client: RemoteClient, userId: number): Promise<BrandListView['list'] | undefined> {
  try {
    const r = await remoteGet(client, `/users/${userId}/brands`, brandListAnswer);
    return isNotFoundAnswer(r) ? null : r;
  } catch (e) {
    if (e instanceof Unreachable) return undefined;
    throw e;
  }
}

/** One brand from the marketplace (its 404 B00001 is thrown as the app's B00001); undefined when it cannot be reached. */
export async function remoteBrandDetail(client: RemoteClient, userId: number, officialStoreId: number): Promise<BrandDetailView | undefined> {
  try {
    const r = await remoteGet(client, `/users/${userId}/brands/${officialStoreId}`, brandDetail);
    if (isNotFoundAnswer(r)) {
      const message = typeof r.body === 'object' && r.body !== null && 'message' in r.body && typeof r.body.message === 'string' ? r.body.message : 'B00001';
      throw new ServiceError(404, 'B00001', message);
    }
    return r;
  } catch (e) {
    if (e instanceof Unreachable) return undefined;
    throw e;
  }
}

const toAccount = (r: Pick<BrandAccountRow, 'id' | 'nickname' | 'first_name' | 'last_name' | 'user_type'>, self: boolean): BrandAccountView => ({
  userId: r.id,
  nickname: r.nickname,
  firstName: r.first_name,
  lastName: r.last_name,
  self,
  brand: r.user_type === 'brand',
});

/**
 * The accounts the brands screen offers (the seller first), plus the users of `include` (a
 * brand's linked users, for their names): from the local data, and for those not known here,
 * from the marketplace while online (at most 20, four at a time; an unreachable one is left out).
 */
export async function brandAccounts(
  p: Pick<Profile, 'kind' | 'remote' | 'engine' | 'db' | 'sellerId'>,
  include: readonly number[] = [],
): Promise<BrandAccountView[]> {
  const repo = brandAccountsRepo(p.db);
  const accounts = repo.accountsOf(p.sellerId).map((r) => toAccount(r, r.self === 1));
  const known = new Set(accounts.map((a) => a.userId));
  const extra = [...new Set(include)].filter((id) => !known.has(id));
  const local = repo.users(extra).map((r) => toAccount(r, false));
  for (const a of local) known.add(a.userId);
  const client = onlineClient(p);
  const missing = extra.filter((id) => !known.has(id)).slice(0, 20);
  const fetched =
    client === null
      ? []
      : await mapLimit(missing, 4, async (id) => {
          const r = await client.request('GET', `/users/${id}`).catch(() => null);
          const u = r?.status === 200 ? userAnswer.safeParse(r.body) : null;
          return u?.success ? toAccount({ ...u.data, user_type: u.data.user_type ?? null }, false) : null;
        });
  return [...accounts, ...local, ...fetched.filter((a): a is BrandAccountView => a !== null)];
}
