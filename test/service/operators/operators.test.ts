import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../main/db/open.js';
import { historyRepo } from '../../../main/db/repos/history.js';
import { operatorsRepo } from '../../../main/db/repos/operators.js';
import { loadFixtures, parseFixtures } from '../../../main/fixtures/load.js';
import { type Service, createService } from '../../../main/service/index.js';
import { PIN_LIMIT, operatorsService, pinLimiter, pinMatches } from '../../../main/service/operators/operators.js';
import { cellKey } from '../../../main/service/stock/cells.js';
import { isServiceError } from '../../../main/service/errors.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { manualClock } from '../../support/oauth.js';

/** Operators of a shared workstation (issue 27) on a real SQLite file: PINs, the lock, and the history rows that name them. */
let dir: string;
let db: Db;
let clock: ReturnType<typeof manualClock>;
const open = () => operatorsService({ repo: operatorsRepo(db), clock, limiter: pinLimiter(clock) });

/** The code (and for a lock, the seconds to wait) of what `p` rejected with. */
async function refusal(p: Promise<unknown>): Promise<{ error: string; status: number; cause: unknown[] }> {
  try {
    await p;
  } catch (e) {
    if (isServiceError(e)) return { error: e.error, status: e.status, cause: e.cause };
    throw e;
  }
  throw new Error('expected a refusal');
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stockroom-operators-'));
  db = openDatabase(join(dir, 'local.db'));
  clock = manualClock();
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('operators', () => {
  it('keeps a PIN only as a salted hash: two people with the same PIN store different salts and hashes, and no PIN text', async () => {
    const ops = open();
    const ana = await ops.add('  Ana   Paz ', '4821');
    const bruno = await ops.add('Bruno', '4821');
    expect(ana.name).toBe('Ana Paz');
    const rows = db.prepare<[], { name: string; pin_salt: Buffer; pin_hash: Buffer }>('SELECT name, pin_salt, pin_hash FROM operators ORDER BY id').all();
    expect(rows).toHaveLength(2);
    const [a, b] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(a.pin_salt.length).toBe(16);
    expect(a.pin_hash.length).toBe(32);
    expect(a.pin_salt.equals(b.pin_salt)).toBe(false);
    expect(a.pin_hash.equals(b.pin_hash)).toBe(false);
    // Nowhere in the row is the PIN itself.
    for (const r of rows) for (const v of [r.pin_salt, r.pin_hash]) expect(v.includes(Buffer.from('4821'))).toBe(false);
    expect(await pinMatches('4821', a)).toBe(true);
    expect(await pinMatches('4822', a)).toBe(false);
    expect(ops.list().map((o) => o.name)).toEqual(['Ana Paz', 'Bruno']);
    expect((await ops.verify(bruno.id, '4821')).name).toBe('Bruno');
  });

  it('refuses a bad name or PIN, and a second operator of the same name (whatever its case) while the first is listed', async () => {
    const ops = open();
    expect((await refusal(ops.add('Ana', '12a4'))).error).toBe('bad_request');
    expect((await refusal(ops.add('Ana', '123'))).error).toBe('bad_request');
    expect((await refusal(ops.add('Ana', '123456789'))).error).toBe('bad_request');
    expect((await refusal(ops.add('   ', '1234'))).error).toBe('bad_request');
    const ana = await ops.add('Ana', '1234');
    expect(await refusal(ops.add('ANA', '9999'))).toMatchObject({ error: 'conflict', status: 409 });
    // Removed: off the list, kept in the table for the history; the name is free again; the PIN no longer signs in.
    ops.remove(ana.id);
    expect(ops.list()).toEqual([]);
    expect(db.prepare('SELECT disabled FROM operators WHERE id = ?').pluck().get(ana.id)).toBe(1);
    expect((await refusal(ops.verify(ana.id, '1234'))).error).toBe('not_found');
    expect((await refusal(Promise.resolve().then(() => ops.remove(ana.id)))).error).toBe('not_found');
    await ops.add('ana', '5555');
  });

  it('refuses a wrong PIN, locks the operator after repeated wrong PINs (even the right one then), and lets them in when the lock is over', async () => {
    const ops = open();
    const ana = await ops.add('Ana', '2468');
    const bruno = await ops.add('Bruno', '1357');
    for (let i = 1; i < PIN_LIMIT.limit; i++) expect(await refusal(ops.verify(ana.id, '0000'))).toMatchObject({ error: 'unauthorized', status: 401 });
    // The limit-th wrong PIN locks at once, and says for how long.
    expect(await refusal(ops.verify(ana.id, '0000'))).toMatchObject({
      error: 'too_many_requests',
      status: 429,
      cause: [{ code: 'retry_after', seconds: PIN_LIMIT.windowMs / 1000 }],
    });
    expect((await refusal(ops.verify(ana.id, '2468'))).error).toBe('too_many_requests');
    // Another operator is not locked by Ana's.
    expect((await ops.verify(bruno.id, '1357')).name).toBe('Bruno');
    clock.advance(PIN_LIMIT.windowMs - 1000);
    expect((await refusal(ops.verify(ana.id, '2468'))).cause).toEqual([{ code: 'retry_after', seconds: 1 }]);
    clock.advance(1000);
    expect(await ops.verify(ana.id, '2468')).toEqual({ id: ana.id, name: 'Ana' });
    // The right PIN forgave the mistakes: a new wrong one is only wrong, not a lock.
    expect((await refusal(ops.verify(ana.id, '0000'))).error).toBe('unauthorized');
  });

  it('locks again twice as long when the wrong PINs go on after a lock', async () => {
    const ops = open();
    const ana = await ops.add('Ana', '2468');
    const fail = async (n: number) => {
      for (let i = 0; i < n; i++) await refusal(ops.verify(ana.id, '1111'));
    };
    await fail(PIN_LIMIT.limit);
    clock.advance(PIN_LIMIT.windowMs);
    await fail(PIN_LIMIT.limit);
    expect((await refusal(ops.verify(ana.id, '2468'))).cause).toEqual([{ code: 'retry_after', seconds: (2 * PIN_LIMIT.windowMs) / 1000 }]);
  });
});

describe('history rows carry the operator', () => {
  let service: Service;
  const seller = { userId: demo.seller.id, applicationId: demo.app };
  const palermo = { userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo };
  const history = (store: string) => historyRepo(db).of(cellKey(demo.userProducts.termo, 'seller_warehouse', store), 50);
  beforeEach(() => {
    loadFixtures(db, parseFixtures(demoFixtures()));
    service = createService(db, { attachmentsDir: join(dir, 'files'), clock });
  });
  afterEach(async () => {
    await service.stop();
  });

  it('an edit, a transfer and an undo made with an operator name them beside the account; without one, none', async () => {
    const ana = await open().add('Ana', '2468');
    await service.localEdits.edit(seller, palermo, { delta: 3 }, { author: 'SELLER', operator: ana });
    await service.localEdits.transfer(
      seller,
      { userProductId: demo.userProducts.termo, fromStoreId: demo.stores.palermo, toStoreId: demo.stores.avellaneda, units: 2 },
      { author: 'SELLER', operator: ana },
    );
    await service.localEdits.undoLast(seller, 'SELLER', ana);
    await service.localEdits.edit(seller, palermo, { quantity: 40 }, { author: 'SELLER' });
    const rows = history(demo.stores.palermo).map((h) => [h.kind, h.reason, h.author, h.operator_id, h.operator_name]);
    expect(rows).toEqual([
      ['count', 'count', 'SELLER', null, null],
      ['adjustment', 'correction', 'SELLER', ana.id, 'Ana'],
      ['adjustment', 'transfer', 'SELLER', ana.id, 'Ana'],
      ['adjustment', 'correction', 'SELLER', ana.id, 'Ana'],
    ]);
    expect(history(demo.stores.avellaneda).map((h) => h.operator_name)).toEqual(['Ana', 'Ana']);
  });
});
