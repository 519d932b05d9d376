/**
 * The order in which a pull reads stock (issue 29): a first pull of 100,000 products takes hours
 * at the marketplace's rate limit, so what the person looks at goes first. Products on screen
 * first (the grid tells which, `sync.visible`), then those just scanned or edited, then the rest
 * in id order. A product is read once per pull whatever list names it.
 */

/** Most ids kept of each priority list (a screen shows a few dozen rows; scans come one by one). */
const MAX_PRIORITY = 500;

export class StockOrder {
  private visible: string[] = [];
  private touched: string[] = [];
  private next = 0;
  private readonly pending: Set<string>;
  private readonly taken = new Set<string>();

  constructor(private readonly rest: readonly string[]) {
    this.pending = new Set(rest);
  }

  get size(): number {
    return this.pending.size;
  }

  /** The products on screen now (replaces the last list). */
  setVisible(ids: readonly string[]): void {
    this.visible = ids.slice(0, MAX_PRIORITY);
  }

  /** A product just scanned or edited: before the rest, after what is on screen. */
  touch(id: string): void {
    this.touched = [id, ...this.touched.filter((t) => t !== id)].slice(0, MAX_PRIORITY);
  }

  /** The next product to read, or undefined when every one was taken. */
  take(): string | undefined {
    for (const list of [this.visible, this.touched]) {
      while (list.length > 0) {
        const id = list.shift()!;
        if (this.claim(id)) return id;
      }
    }
    while (this.next < this.rest.length) {
      const id = this.rest[this.next++]!;
      if (this.claim(id)) return id;
    }
    return undefined;
  }

  private claim(id: string): boolean {
    if (!this.pending.has(id) || this.taken.has(id)) return false;
    this.taken.add(id);
    return true;
  }
}

/** Reads per minute over the last minute, on the pull's clock; null until a minute was measured. */
export class ReadPace {
  // Times of the reads, oldest first from `head` (dropped from the front without shifting an array of 100,000).
  private at: number[] = [];
  private head = 0;
  private started: number | null = null;

  constructor(private readonly now: () => number) {}

  start(): void {
    this.started ??= this.now();
  }

  read(): void {
    this.at.push(this.now());
  }

  perMinute(): number | null {
    const now = this.now();
    if (this.started === null || now - this.started < 60_000) return null;
    while (this.head < this.at.length && this.at[this.head]! <= now - 60_000) this.head++;
    if (this.head > 1024 && this.head * 2 > this.at.length) {
      this.at = this.at.slice(this.head);
      this.head = 0;
    }
    return this.at.length - this.head;
  }
}
