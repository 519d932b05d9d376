/**
 * Bounds on what the remote's paged listings may make a pull do. A listing's `paging.total` and
 * its pages come from the remote: a broken or hostile one could announce 10⁹ entries (a pull
 * that sized its work from it died on allocation, at every start) or always have one more page
 * (20,001 requests). Each listing is read within what its first page announced (plus one page
 * for entries added while paging) and within a hard ceiling; past either the pull ends with a
 * PullError that says so.
 */

export class PullError extends Error {
  constructor(
    message: string,
    readonly offline: boolean,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'PullError';
  }
}

/** The most entries one pull reads of each listing. */
export interface ListingLimits {
  stores: number;
  items: number;
  orders: number;
  /** Messages of one conversation. */
  messages: number;
}

/**
 * Far above any real seller (the benches run 100,000 products) and small enough that reading a
 * listing to its ceiling stays a bounded amount of memory and requests.
 */
export const DEFAULT_LISTING_LIMITS: ListingLimits = { stores: 10_000, items: 1_000_000, orders: 200_000, messages: 20_000 };

/** A listing's announced total, checked against its ceiling before any work is sized from it. */
export function checkTotal(what: string, total: number, ceiling: number): number {
  if (total > ceiling) {
    throw new PullError(`${what}: the marketplace announced ${total} entries, more than the ${ceiling} the app reads in one listing`, false, 200);
  }
  return total;
}

/**
 * Walks an offset-paged listing page by page: `next` records a page and gives the next offset, or
 * null when the listing is read. The first page fixes the budget; a remote that keeps paging past
 * it, or answers more entries than asked for, ends the listing with a PullError.
 */
export class Pager {
  private announced = -1;
  private offset = 0;
  private pages = 0;
  private maxPages = 0;

  constructor(
    private readonly what: string,
    private readonly ceiling: number,
    private readonly pageSize: number,
  ) {}

  next(total: number, count: number): number | null {
    this.pages++;
    if (count > this.pageSize) throw new PullError(`${this.what}: a page of ${count} entries, more than the ${this.pageSize} asked for`, false, 200);
    if (this.announced < 0) {
      this.announced = checkTotal(this.what, total, this.ceiling);
      // Short pages are allowed (a remote may cap its page size), but only as many as full pages of the first one's size.
      this.maxPages = Math.ceil(this.budget() / Math.max(1, count)) + 1;
    }
    this.offset += count;
    if (count === 0 || this.offset >= total) return null;
    if (this.offset >= this.budget() || this.pages >= this.maxPages) {
      throw new PullError(
        `${this.what}: the marketplace kept paging past the ${this.announced} entries it announced (${this.offset} read in ${this.pages} pages)`,
        false,
        200,
      );
    }
    return this.offset;
  }

  private budget(): number {
    return Math.min(this.ceiling, this.announced + this.pageSize);
  }
}
