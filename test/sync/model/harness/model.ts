import type { Cell } from './protocol.js';

/**
 * The reference model of the outbox's model-based test: what the remote must hold, from what the
 * person was told. It knows nothing of entries, lanes or requests; only the person's acknowledged
 * intents in the order they were made (the order a cell's intents reach the remote: a lane sends
 * in id order), the sales made on the remote, and what the person chose for what the app showed.
 *
 * - An acknowledged adjustment, count or transfer reaches the remote exactly once, unless the
 *   person dropped it (discard, take theirs; an undo that withdrew it), the app learnt it never
 *   applied after the person asked to take it back, or an undo's inverse follows it.
 * - A sale is only made while the app has nothing active on that product, so it falls between
 *   intents; a "race" sale is made while a count is held on the wire, just before it (and that
 *   count, and a session count whose cell moved since it was counted, are the only conflicts).
 */
export type OpKind = 'adjust' | 'count' | 'transfer' | 'sale';

export interface Op {
  seq: number;
  kind: OpKind;
  /** The cell (a transfer: its source). */
  cell: string;
  /** A transfer's destination cell. */
  to?: string;
  delta?: number;
  quantity?: number;
  /** The app's entry carrying it (null: it cancelled out, or none); its fate is read from the app at a settle. */
  entryId: number | null;
  /** The person's edit: its reference and history row (an inverse and a sale have none). */
  ref?: string;
  historyId?: number;
  /** The value the cell showed before it (its history row's from; a count's undo goes back to it). */
  from?: number;
  /** An undo's inverse: the op it takes back (it goes with that op). */
  undoes?: Op;
  /** Taken back or dropped: no effect. */
  dropped: boolean;
  /** The person's undo took it back (the app withdrew it or queued its inverse). */
  undone: boolean;
  /** A conflict is expected for it (a count raced by a sale, a session count of a cell that moved). */
  expectConflict: boolean;
  /**
   * A conflict is allowed for it: a count of a cell sold on the marketplace since the app last
   * pulled (its base, what the app showed, was older than the remote: the remote did change under it).
   */
  mayConflict: boolean;
}

export interface MessageIntent {
  text: string;
  entryId: number;
}

export const keyOf = (c: Cell) => `${c.up}|seller_warehouse|${c.store}`;

export class ReferenceModel {
  /** The remote's values at the last settle. */
  readonly base = new Map<string, number>();
  ops: Op[] = [];
  messages: MessageIntent[] = [];
  /** The person's edits still undoable, oldest first (across settles: undo can reach back). */
  edits: Op[] = [];
  /** Cells counted in the open session: the value each showed then. */
  observed = new Map<string, { cell: Cell; shown: number }>();
  private seq = 0;
  /** Whether the proxy is cut off (the app cannot reach the remote). */
  offline = false;

  constructor(readonly cells: Cell[]) {}

  /** Cells sold on the remote since the app last pulled. */
  readonly soldSincePull = new Set<string>();

  /** `undoable`: an edit of the person's that undo can take back (a count that resolved a conflict is a resolution, not an edit). */
  add(op: Omit<Op, 'seq' | 'dropped' | 'undone' | 'expectConflict' | 'mayConflict'> & { expectConflict?: boolean }, undoable = true): Op {
    const mayConflict = op.kind === 'count' && this.soldSincePull.has(op.cell);
    const full: Op = { expectConflict: false, ...op, mayConflict, seq: this.seq++, dropped: false, undone: false };
    this.ops.push(full);
    if (full.ref !== undefined && undoable) this.edits.push(full);
    return full;
  }

  /** An adjustment cancelled the cell's queued one out (the entry went): their ops net to nothing, with no entry of their own. */
  cancelled(cell: string): void {
    const tail = [...this.ops].reverse().find((o) => !o.dropped && o.entryId !== null && (o.cell === cell || o.to === cell));
    if (tail) for (const o of this.ops) if (o.entryId === tail.entryId) o.entryId = null;
  }

  /** A sale made just before `before` reaches the remote (a race), or now. */
  sale(cell: string, units: number, before?: Op): void {
    const op: Op = {
      seq: this.seq++,
      kind: 'sale',
      cell,
      delta: -units,
      entryId: null,
      dropped: false,
      undone: false,
      expectConflict: false,
      mayConflict: false,
    };
    this.soldSincePull.add(cell);
    if (before) this.ops.splice(this.ops.indexOf(before), 0, op);
    else this.ops.push(op);
  }

  /** The person's newest edit not undone nor dropped: what the app's undo must take back. */
  undoTarget(): Op | undefined {
    for (let i = this.edits.length - 1; i >= 0; i--) {
      const e = this.edits[i]!;
      if (!e.undone && !e.dropped) return e;
    }
    return undefined;
  }

  /** Drops an op and the inverses that follow it. */
  drop(op: Op): void {
    op.dropped = true;
    for (const o of this.ops) if (o.undoes === op && !o.dropped) this.drop(o);
  }

  /** What every cell must hold on the remote once everything is settled. */
  expected(): Map<string, number> {
    const v = new Map(this.base);
    const add = (cell: string, d: number) => v.set(cell, (v.get(cell) ?? 0) + d);
    for (const op of this.ops) {
      if (op.dropped) continue;
      if (op.kind === 'count') v.set(op.cell, op.quantity!);
      else if (op.kind === 'transfer') {
        add(op.cell, -op.delta!);
        add(op.to!, op.delta!);
      } else add(op.cell, op.delta!);
    }
    return v;
  }

  /** After a settle: the remote is the new base; settled ops and messages are done with. */
  settled(remote: Map<string, number>): void {
    for (const [k, q] of remote) this.base.set(k, q);
    this.ops = [];
    this.messages = [];
    this.soldSincePull.clear();
    this.edits = this.edits.filter((e) => !e.dropped && !e.undone);
    for (const e of this.edits) e.entryId = null;
  }
}
