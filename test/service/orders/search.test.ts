/**
 * GET /orders/search's filters in the service (issue 29): `order.status`, `order.date_created.from`
 * / `.to`, `sort`, over a real SQLite file loaded with the demo data plus orders of known dates.
 * A filter the service does not know, or a malformed one, is a 400 in the spec's shape (it used to
 * be dropped, so `order.status=cancelled` answered paid orders too).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../main/db/open.js';
import { ordersRepo } from '../../../main/db/repos/orders.js';
import { loadFixtures, parseFixtures } from '../../../main/fixtures/load.js';
import type { FixtureFile } from '../../../main/fixtures/schema.js';
import { type OrderSearchResult, orderSearchService } from '../../../main/service/orders/search.js';
import { ServiceError } from '../../../main/service/errors.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { demoOrders, orderFixture } from '../../support/messages.js';
import { tempDirs } from '../../support/temp-dir.js';

const tempDir = tempDirs('stockroom-order-search-');

/** Orders of the demo seller with dates around the start of October 2021 (UTC unless said). */
const mine = {
  paidFirst: { id: 4100009000001, status: 'paid', date: '2021-10-01T10:00:00.000Z' },
  cancelledSecond: { id: 4100009000002, status: 'cancelled', date: '2021-10-02T10:00:00.000Z' },
  // 23:30 on 3 October in Buenos Aires is 02:30 on the 4th in UTC.
  cancelledLateLocal: { id: 4100009000003, status: 'cancelled', date: '2021-10-03T23:30:00-03:00' },
  paidSameDate: { id: 4100009000004, status: 'paid', date: '2021-10-02T10:00:00.000Z' },
} as const;
/** No date_created: it answers, and is filtered by, its status date (when the fixtures were loaded). */
const UNDATED = 4100009000005;

function fixtures(): FixtureFile {
  const f = demoFixtures();
  f.orders = [
    ...(f.orders ?? []),
    ...Object.values(mine).map((o) => orderFixture({ id: o.id, status: o.status, date_created: o.date })),
    orderFixture({ id: UNDATED }),
    // Another seller's cancelled order never shows in the demo seller's search.
    orderFixture({ id: 4100009000006, seller_id: demo.other.id, status: 'cancelled', date_created: '2021-10-02T11:00:00Z' }),
  ];
  return f;
}

const open: Db[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function setup() {
  const loadedFrom = new Date().toISOString();
  const db = openDatabase(join(tempDir(), 'marketplace.db'));
  open.push(db);
  loadFixtures(db, parseFixtures(fixtures()));
  const loadedTo = new Date().toISOString();
  const service = orderSearchService(ordersRepo(db));
  const seller = { userId: demo.seller.id, applicationId: demo.app };
  const search = (query: Record<string, string | string[]>): OrderSearchResult => service.search(seller, { seller: String(demo.seller.id), ...query });
  return { db, service, seller, search, loadedFrom, loadedTo };
}

const ids = (r: OrderSearchResult) => r.results.map((o) => o.id);

/** The ServiceError a call throws (fails the test when it answers). */
function refusal(call: () => unknown): ServiceError {
  try {
    call();
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error('expected a refusal, got an answer');
}

describe('orderSearchService: order.status', () => {
  it('cancelled answers only the cancelled orders of the caller, and counts only them', () => {
    const { search } = setup();
    const all = search({ limit: '100' });
    const r = search({ 'order.status': 'cancelled', limit: '100' });
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results.every((o) => o.status === 'cancelled')).toBe(true);
    expect(ids(r).sort()).toEqual([demoOrders.cancelled.id, mine.cancelledSecond.id, mine.cancelledLateLocal.id].sort());
    expect(r.paging.total).toBe(3);
    // Every cancelled order of the unfiltered answer is there, and nothing else.
    expect(ids(r)).toEqual(all.results.filter((o) => o.status === 'cancelled').map((o) => o.id));
    const paid = search({ 'order.status': 'paid', limit: '100' });
    expect(paid.paging.total + r.paging.total).toBe(all.paging.total);
    expect(paid.results.every((o) => o.status === 'paid')).toBe(true);
  });

  it('a status of the marketplace that no order here has answers an empty page', () => {
    const { search } = setup();
    expect(search({ 'order.status': 'payment_required' })).toMatchObject({ results: [], paging: { total: 0, offset: 0, limit: 50 } });
  });
});

describe('orderSearchService: order.date_created.from / .to', () => {
  it('bounds are inclusive and read with their offset', () => {
    const { search } = setup();
    const r = search({ 'order.date_created.from': '2021-10-02T10:00:00.000Z', 'order.date_created.to': '2021-10-02T07:00:00-03:00' });
    expect(ids(r)).toEqual([mine.cancelledSecond.id, mine.paidSameDate.id]);
    expect(r.results.every((o) => o.date_created === '2021-10-02T10:00:00.000Z')).toBe(true);
  });

  it('a whole day is that UTC day, from its first to its last millisecond', () => {
    const { search } = setup();
    expect(ids(search({ 'order.date_created.from': '2021-10-01', 'order.date_created.to': '2021-10-03' }))).toEqual([
      mine.paidFirst.id,
      mine.cancelledSecond.id,
      mine.paidSameDate.id,
    ]);
    // The same days in Buenos Aires take the order of 23:30 local on the 3rd.
    expect(ids(search({ 'order.date_created.from': '2021-10-01T00:00:00-03:00', 'order.date_created.to': '2021-10-03T23:59:59.999-03:00' }))).toEqual([
      mine.paidFirst.id,
      mine.cancelledSecond.id,
      mine.cancelledLateLocal.id,
      mine.paidSameDate.id,
    ]);
  });

  it('one bound alone, and together with the status and paging', () => {
    const { search } = setup();
    const since = search({ 'order.date_created.from': '2021-10-02', 'order.date_created.to': '2021-10-31' });
    expect(ids(since)).toEqual([mine.cancelledSecond.id, mine.cancelledLateLocal.id, mine.paidSameDate.id]);
    const before = search({ 'order.date_created.to': '2021-10-01T23:59:59Z', limit: '100' });
    expect(before.results.every((o) => o.date_created <= '2021-10-01T23:59:59.000Z')).toBe(true);
    expect(ids(before)).toEqual([mine.paidFirst.id]);
    const cancelledInOctober = search({
      'order.status': 'cancelled',
      'order.date_created.from': '2021-10-01',
      'order.date_created.to': '2021-10-31',
      limit: '1',
      offset: '1',
    });
    expect(cancelledInOctober.paging).toEqual({ total: 2, offset: 1, limit: 1 });
    expect(ids(cancelledInOctober)).toEqual([mine.cancelledLateLocal.id]);
  });

  it('an order without date_created is filtered by the date it answers, its status date', () => {
    const { search, loadedFrom, loadedTo } = setup();
    const r = search({ 'order.date_created.from': loadedFrom, 'order.date_created.to': loadedTo, limit: '100' });
    expect(ids(r)).toContain(UNDATED);
    const undated = r.results.find((o) => o.id === UNDATED)!;
    expect(undated.date_created).toBe(undated.status_date);
    expect(ids(search({ 'order.date_created.to': '2021-10-31', limit: '100' }))).not.toContain(UNDATED);
  });
});

describe('orderSearchService: sort', () => {
  it('date_asc and date_desc order by the answered date, ties by id, and say so', () => {
    const { search } = setup();
    const asc = search({ sort: 'date_asc', limit: '100' });
    const desc = search({ sort: 'date_desc', limit: '100' });
    expect(asc.sort).toEqual({ id: 'date_asc', name: 'Date ascending' });
    expect(desc.sort).toEqual({ id: 'date_desc', name: 'Date descending' });
    const instants = (r: OrderSearchResult) => r.results.map((o) => Date.parse(o.date_created));
    expect(instants(asc)).toEqual([...instants(asc)].sort((a, b) => a - b));
    expect(instants(desc)).toEqual([...instants(desc)].sort((a, b) => b - a));
    expect(ids(desc)).toEqual([...ids(asc)].reverse());
    // Two orders of the same instant: the lower id first when ascending.
    expect(ids(asc).indexOf(mine.cancelledSecond.id)).toBe(ids(asc).indexOf(mine.paidSameDate.id) - 1);
    expect(asc.results[0]!.id).toBe(mine.paidFirst.id); // the oldest
  });

  it('pages of a date sort join into the whole list', () => {
    const { search } = setup();
    const whole = ids(search({ sort: 'date_desc', limit: '100' }));
    const pages: number[] = [];
    for (let offset = 0; offset < whole.length; offset += 3) pages.push(...ids(search({ sort: 'date_desc', limit: '3', offset: String(offset) })));
    expect(pages).toEqual(whole);
  });

  it('no sort is id ascending, as before', () => {
    const { search } = setup();
    const r = search({ limit: '100' });
    expect(r.sort).toEqual({ id: 'id_asc', name: 'Order id ascending' });
    expect(ids(r)).toEqual([...ids(r)].sort((a, b) => a - b));
    expect(ids(search({ sort: 'id_asc', limit: '100' }))).toEqual(ids(r));
  });
});

describe('orderSearchService: refusals', () => {
  it.each([
    [{ 'order.statuss': 'cancelled' }, "Unknown query param 'order.statuss'", 'unknown_filter'],
    [{ status: 'cancelled' }, "Unknown query param 'status'", 'unknown_filter'],
    [{ 'order.status': 'shipped' }, "Invalid query param 'order.status'", 'invalid_filter'],
    [{ 'order.status': ['paid', 'cancelled'] }, "Invalid query param 'order.status': a filter takes one value", 'invalid_filter'],
    [{ 'order.date_created.from': 'yesterday' }, "Invalid query param 'order.date_created.from'", 'invalid_filter'],
    [{ 'order.date_created.from': '2026-02-30' }, "Invalid query param 'order.date_created.from'", 'invalid_filter'],
    [{ 'order.date_created.to': '2021-10-02T10:00:00' }, "Invalid query param 'order.date_created.to'", 'invalid_filter'],
    [{ 'order.date_created.to': '2021-10-02T24:00:00Z' }, "Invalid query param 'order.date_created.to'", 'invalid_filter'],
    [{ sort: 'price_asc' }, "Invalid query param 'sort'", 'invalid_filter'],
  ])('%j is a 400 naming it', (query, message, code) => {
    const { search } = setup();
    const e = refusal(() => search(query));
    expect(e.toBody()).toMatchObject({ error: 'bad_request', status: 400, cause: [expect.objectContaining({ code })] });
    expect(e.message.startsWith(message)).toBe(true);
  });

  it('a range that ends before it starts is a 400', () => {
    const { search } = setup();
    const e = refusal(() => search({ 'order.date_created.from': '2021-10-03', 'order.date_created.to': '2021-10-02' }));
    expect(e.status).toBe(400);
    expect(e.message).toBe("Invalid query params: 'order.date_created.from' is after 'order.date_created.to'");
  });

  it('a bad filter is refused before the caller is checked, and a good one does not let a stranger in', () => {
    const { service } = setup();
    const stranger = { userId: demo.other.id, applicationId: demo.app };
    expect(refusal(() => service.search(stranger, { seller: String(demo.seller.id), sort: 'x' })).status).toBe(400);
    expect(refusal(() => service.search(stranger, { seller: String(demo.seller.id), 'order.status': 'cancelled' })).status).toBe(403);
  });

  it('refusing changes nothing: the same search answers the same after it', () => {
    const { search, db } = setup();
    const before = search({ limit: '100' });
    const changes = db.prepare<[], { n: number }>('SELECT total_changes() AS n').get()!.n;
    refusal(() => search({ 'order.status': 'cancelled', 'order.foo': '1' }));
    expect(db.prepare<[], { n: number }>('SELECT total_changes() AS n').get()!.n).toBe(changes);
    expect(search({ limit: '100' })).toEqual(before);
  });
});
