import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FaultProxy, type Faults, NO_FAULTS, startFaultProxy } from '../../../support/fault-proxy.js';
import { demo } from '../../../support/fixtures.js';
import { demoOrders, packPath } from '../../../support/messages.js';
import { type TestServer, startTestServer } from '../../../support/server.js';
import { demoWithProducts, readRemoteStock } from '../../../support/sync-harness.js';
import { ChildGone, EngineChild } from './driver.js';
import { type Op, ReferenceModel, keyOf } from './model.js';
import type { Cell, ChildCommand, EntrySeen } from './protocol.js';

/** Fault levels a program switches between (the proxy's random faults; 4 cuts the network). */
export const FAULT_LEVELS: Faults[] = [
  NO_FAULTS,
  { drop: 0.05, reset: 0.05, delay: 0.05, error500: 0.05, tooMany: 0, delayMs: [1, 20] },
  { drop: 0.15, reset: 0.15, delay: 0.1, error500: 0.1, tooMany: 0, delayMs: [1, 30] },
  { drop: 0, reset: 0.5, delay: 0, error500: 0, tooMany: 0 },
];

export interface Figures {
  programs: number;
  steps: number;
  faults: number;
  kills: number;
  restarts: number;
  settles: number;
  conflicts: number;
  unknowns: number;
  violations: string[];
}

export const emptyFigures = (): Figures => ({ programs: 0, steps: 0, faults: 0, kills: 0, restarts: 0, settles: 0, conflicts: 0, unknowns: 0, violations: [] });

/** The real system of one program: the remote on loopback, the fault proxy before it, a replica and its engine in a child process. */
export class System {
  child!: EngineChild;
  readonly model: ReferenceModel;
  readonly pack = demoOrders.packed.pack;
  private refs = 0;
  private readonly replicaDir = mkdtempSync(join(tmpdir(), 'stockroom-model-'));

  private constructor(
    readonly server: TestServer,
    readonly proxy: FaultProxy,
    readonly cells: Cell[],
    readonly figures: Figures,
    readonly seed: number,
  ) {
    this.model = new ReferenceModel(cells);
  }

  static async start(figures: Figures, seed: number): Promise<System> {
    const { fixtures, products } = demoWithProducts(2);
    const server = await startTestServer(fixtures);
    const proxy = await startFaultProxy(server.url, { seed });
    const cells = products.flatMap((up) => [demo.stores.palermo, demo.stores.avellaneda].map((store) => ({ up, store })));
    const s = new System(server, proxy, cells, figures, seed);
    await s.spawn();
    const remote = await s.remote();
    for (const [k, q] of remote) s.model.base.set(k, q);
    return s;
  }

  async close(): Promise<void> {
    await this.child.stop().catch(() => undefined);
    await this.proxy.close();
    await this.server.close();
    rmSync(this.replicaDir, { recursive: true, force: true });
  }

  async spawn(): Promise<void> {
    this.child = new EngineChild({ replicaDir: this.replicaDir, url: this.proxy.url, token: demo.seller.token, sellerId: demo.seller.id, maxAttempts: 3 });
    // The first start pulls the marketplace (the proxy may be cut off or faulty: until it got it).
    for (let i = 0; ; i++) {
      if (this.model.offline) {
        await this.proxy.goOnline();
        this.model.offline = false;
      }
      const a = await this.child.send({ op: 'pullIfEmpty' });
      if (a.ok) break;
      if (i > 20) throw new Error(`the first pull never succeeded: ${a.error}`);
    }
  }

  nextRef(): string {
    return `e${this.refs++}`;
  }

  violation(what: string): void {
    // Once per program: a state seen again at the next step is the same finding.
    if (!this.seen.has(what)) this.figures.violations.push(what);
    this.seen.add(what);
  }
  private readonly seen = new Set<string>();
  /** Each step with the app's entries and the model's ops after it (written out when a program finds a violation). */
  readonly trace: string[] = [];
  /** Entries seen in conflict (after a step, or at a settle). */
  readonly conflictSeen = new Set<number>();

  /** What every cell holds on the remote (read straight from the server). */
  async remote(): Promise<Map<string, number>> {
    const ups = [...new Set(this.cells.map((c) => c.up))];
    const stock = await readRemoteStock(this.server.url, demo.seller.token, ups, 2);
    return new Map(this.cells.map((c) => [keyOf(c), stock.get(c.up)!.cells.get(`seller_warehouse|${c.store}`) ?? 0]));
  }

  /** A sale on the remote (straight to the server): `units` fewer in the cell, at its current version. */
  async sell(cell: Cell, units: number): Promise<void> {
    const seller = this.server.as(demo.seller.token);
    for (;;) {
      const cur = await seller.get(`/user-products/${cell.up}/stock`);
      const locations = cur.body.locations as { type: string; store_id?: string; quantity: number }[];
      const q = locations.find((l) => l.type === 'seller_warehouse' && l.store_id === cell.store)?.quantity ?? 0;
      const res = await seller.put(
        `/user-products/${cell.up}/stock/type/seller_warehouse`,
        { locations: [{ store_id: cell.store, quantity: q - units }] },
        { 'x-version': cur.headers.get('x-version')! },
      );
      if (res.status === 200) return;
      if (res.status !== 409) throw new Error(`the remote refused a sale: ${res.status}`);
    }
  }

  /** Texts of the conversation's messages on the remote. */
  async remoteTexts(): Promise<string[]> {
    const res = await this.server.as(demo.seller.token).get(`${packPath(this.pack)}?mark_as_read=false&limit=100`);
    return (res.body.messages as { text: string }[]).map((m) => m.text);
  }

  async entries(): Promise<EntrySeen[]> {
    return this.child.call<EntrySeen[]>({ op: 'entries' });
  }

  /** Whether the app has anything active on a user product (a sale then would race it). */
  async busy(up: string): Promise<boolean> {
    return (await this.entries()).some((e) => e.cell?.startsWith(`${up}|`) || e.cell2?.startsWith(`${up}|`));
  }

  /** Sends a command; an answer lost to a kill is undefined. */
  async send(command: ChildCommand) {
    try {
      return await this.child.send(command);
    } catch (e) {
      if (e instanceof ChildGone) return undefined;
      throw e;
    }
  }

  /** After an undo (or a kill during one): what the app did, read from its history, applied to the model. */
  async recordUndo(target: Op | undefined, answered: { how: string; undone: number | null } | undefined): Promise<void> {
    if (answered && answered.how === 'nothing') {
      if (target) this.violation(`undo found nothing although ${target.ref} was undoable`);
      return;
    }
    if (!target) {
      if (answered) this.violation(`undo took back history row ${answered.undone} where the model had no edit to undo`);
      return;
    }
    if (answered && answered.undone !== target.historyId)
      this.violation(`undo took back row ${answered.undone}, expected ${target.ref} (row ${target.historyId})`);
    const h = await this.child.call<{ undos: Record<string, { note: string | null; delta: number | null; entry_id: number | null } | null> }>({
      op: 'history',
      refs: [],
      undoes: [target.historyId!],
    });
    const row = h.undos[String(target.historyId)];
    if (!row) {
      if (answered) this.violation(`undo of ${target.ref} answered ${answered.how} but wrote no history row`);
      return; // killed before it committed: nothing happened
    }
    target.undone = true;
    const note = row.note ?? '';
    if (note.startsWith('undo: withdrawn') || note.startsWith('undo: refused') || note.startsWith('undo: transfer withdrawn')) {
      // Taken out of the outbox: removed (the row names no entry), or a count put back to what the cell showed before it.
      // An earlier count merged into the same entry is what the entry holds again: the undone one is gone.
      const earlier = this.model.ops.some((o) => o !== target && o.seq < target.seq && !o.dropped && o.kind === 'count' && o.entryId === target.entryId);
      if (target.kind === 'count' && note.startsWith('undo: withdrawn') && row.entry_id !== null && !earlier) target.quantity = target.from!;
      else this.model.drop(target);
      return;
    }
    if (note.startsWith('undo: nothing to change')) return;
    const open = target.entryId !== null && this.model.ops.includes(target) ? target : undefined;
    if (target.kind === 'transfer') {
      this.model.add({ kind: 'transfer', cell: target.to!, to: target.cell, delta: target.delta!, entryId: row.entry_id, ...(open ? { undoes: open } : {}) });
    } else {
      this.model.add({ kind: 'adjust', cell: target.cell, delta: row.delta ?? 0, entryId: row.entry_id, ...(open ? { undoes: open } : {}) });
    }
  }

  /** After a kill: whether the edit whose answer was lost had committed (its history row), applied to the model. */
  async recordUnanswered(
    ref: string,
    op: Omit<Op, 'seq' | 'dropped' | 'undone' | 'expectConflict' | 'mayConflict' | 'entryId' | 'historyId' | 'from' | 'ref'>,
  ): Promise<void> {
    const h = await this.child.call<{ refs: Record<string, { id: number; entry_id: number | null; from_quantity: number | null; kind: string } | null> }>({
      op: 'history',
      refs: [ref],
      undoes: [],
    });
    const row = h.refs[ref];
    // A count that resolved a conflict is a resolution (its row says so), not an edit undo takes back.
    if (!row) return;
    // A count that resolved a conflict (its row says so): the person saw that conflict and answered it.
    if (row.kind === 'conflict_resolution' && row.entry_id !== null) this.conflictSeen.add(row.entry_id);
    // An adjustment whose row names no entry cancelled the cell's queued one out.
    if (row.entry_id === null && op.kind === 'adjust') this.model.cancelled(op.cell);
    this.model.add({ ...op, ref, entryId: row.entry_id, historyId: row.id, from: row.from_quantity ?? 0 }, row.kind !== 'conflict_resolution');
  }
}
