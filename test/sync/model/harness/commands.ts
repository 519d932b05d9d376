import fc from 'fast-check';
import { demo } from '../../../support/fixtures.js';
import { FAULT_LEVELS, type System } from './system.js';
import { type Op, type ReferenceModel, keyOf } from './model.js';
import { type Policy, settle } from './settle.js';
import type { Cell, ChildCommand } from './protocol.js';

/**
 * The steps of a program of the outbox's model-based test (fast-check's model-based testing):
 * what a person does (adjust, count, transfer, undo, a count session, an import, scan to count's
 * tally, a message), what
 * happens on the marketplace (sales, one racing a count on the wire), what the network and the
 * machine do (faults, the network cut, a restart, a SIGKILL at any point), and settles where the
 * person acts on everything shown and the whole state is checked (settle.ts).
 */
type Step = fc.AsyncCommand<ReferenceModel, System>;
type QueueAnswer = { entryId: number | null; how: string; historyId: number; from: number | null };

const cellAt = (s: System, i: number): Cell => s.cells[i % s.cells.length]!;
const other = (store: string) => (store === demo.stores.palermo ? demo.stores.avellaneda : demo.stores.palermo);

/** After every step: a conflict only where the remote really changed under a count. */
async function stepCheck(s: System, step: string): Promise<void> {
  s.figures.steps++;
  const entries = await s.entries();
  s.trace.push(
    `${step}\n  entries ${JSON.stringify(entries.map((e) => [e.id, e.phase, e.cell, e.undoes]))}\n  model ${JSON.stringify(s.model.ops.map((o) => [o.ref ?? o.kind, o.kind, o.cell, o.delta ?? o.quantity, o.entryId, o.dropped, o.expectConflict || o.mayConflict]))}`,
  );
  for (const e of entries) {
    if (e.phase !== 'conflict') continue;
    s.conflictSeen.add(e.id);
    if (!s.model.ops.some((o) => o.entryId === e.id && (o.expectConflict || o.mayConflict))) s.violation(`a conflict nobody caused: entry ${e.id}`);
  }
}

/** An acknowledged stock edit into the model (an adjustment that cancelled the cell's queued one out takes that one's entry with it). */
function record(
  s: System,
  op: Omit<Op, 'seq' | 'dropped' | 'undone' | 'expectConflict' | 'mayConflict' | 'entryId' | 'historyId' | 'from'>,
  a: QueueAnswer,
  expectConflict = false,
): Op {
  const m = s.model;
  if (a.how === 'cancelled') m.cancelled(op.cell);
  if (a.how === 'resolved' && a.entryId !== null) {
    // A count typed on a cell in conflict resolved it (the person saw the conflict and answered it):
    // the conflicting count's undo goes with it.
    s.conflictSeen.add(a.entryId);
    for (const o of m.ops) if (o.entryId === a.entryId && o.kind === 'count') for (const inv of m.ops) if (inv.undoes === o) m.drop(inv);
  }
  return m.add({ ...op, entryId: a.entryId, historyId: a.historyId, from: a.from ?? 0, expectConflict }, a.how !== 'resolved');
}

/** A grid edit of one cell: an adjustment (a delta) or a count (a quantity). */
class Edit implements Step {
  constructor(
    readonly op: 'adjust' | 'count',
    readonly cell: number,
    readonly value: number,
  ) {}
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    const cell = cellAt(s, this.cell);
    const ref = s.nextRef();
    const command: ChildCommand = this.op === 'adjust' ? { op: 'adjust', cell, ref, delta: this.value } : { op: 'count', cell, ref, quantity: this.value };
    const a = await s.child.call<QueueAnswer>(command);
    const change = this.op === 'adjust' ? { delta: this.value } : { quantity: this.value };
    record(s, { kind: this.op, cell: keyOf(cell), ref, ...change }, a);
    await stepCheck(s, this.toString());
  }
  toString = () => `${this.op}(${this.cell}, ${this.value})`;
}

class Transfer implements Step {
  constructor(
    readonly cell: number,
    readonly units: number,
  ) {}
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    const cell = cellAt(s, this.cell);
    const to = { up: cell.up, store: other(cell.store) };
    const ref = s.nextRef();
    const a = await s.child.call<QueueAnswer>({ op: 'transfer', cell, to: to.store, units: this.units, ref });
    record(s, { kind: 'transfer', cell: keyOf(cell), to: keyOf(to), delta: this.units, ref }, a);
    await stepCheck(s, this.toString());
  }
  toString = () => `transfer(${this.cell}, ${this.units})`;
}

class Undo implements Step {
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    const target = m.undoTarget();
    const r = await s.child.call<{ how: string; undone: number | null }>({ op: 'undo' });
    await s.recordUndo(target, r);
    await stepCheck(s, this.toString());
  }
  toString = () => 'undo()';
}

class Observe implements Step {
  constructor(readonly cell: number) {}
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    const cell = cellAt(s, this.cell);
    const [shown] = await s.child.call<number[]>({ op: 'shown', cells: [cell] });
    if (!m.observed.has(keyOf(cell))) m.observed.set(keyOf(cell), { cell, shown: shown! });
    await stepCheck(s, this.toString());
  }
  toString = () => `countSession.count(${this.cell})`;
}

class ApplySession implements Step {
  constructor(readonly offset: number) {}
  check = (m: Readonly<ReferenceModel>) => m.observed.size > 0;
  async run(m: ReferenceModel, s: System) {
    for (const { cell, shown: base } of m.observed.values()) {
      const ref = s.nextRef();
      const quantity = Math.max(0, base + this.offset);
      const a = await s.child.call<QueueAnswer & { moved: boolean; shownBefore: number }>({ op: 'observed', cell, quantity, base, ref });
      if (a.moved !== (a.shownBefore !== base))
        s.violation(`session count of ${keyOf(cell)}: moved ${a.moved}, but it showed ${base} when counted and ${a.shownBefore} at Apply`);
      record(s, { kind: 'count', cell: keyOf(cell), quantity, ref }, a, a.moved);
    }
    m.observed.clear();
    await stepCheck(s, this.toString());
  }
  toString = () => `countSession.apply(${this.offset})`;
}

class Import implements Step {
  constructor(readonly edits: { cell: number; delta: number | null; quantity: number }[]) {}
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    const edits: { cell: Cell; ref: string; delta?: number; quantity?: number }[] = this.edits.map((e) => ({
      cell: cellAt(s, e.cell),
      ref: s.nextRef(),
      ...(e.delta !== null ? { delta: e.delta } : { quantity: e.quantity }),
    }));
    const answers = await s.child.call<QueueAnswer[]>({ op: 'batch', edits });
    edits.forEach((e, i) =>
      record(
        s,
        e.delta !== undefined
          ? { kind: 'adjust', cell: keyOf(e.cell), delta: e.delta, ref: e.ref }
          : { kind: 'count', cell: keyOf(e.cell), quantity: e.quantity!, ref: e.ref },
        answers[i]!,
      ),
    );
    await stepCheck(s, this.toString());
  }
  toString = () => `import(${JSON.stringify(this.edits)})`;
}

/** Scan to count: scans of one cell's product into its store's tally, then Apply: one adjustment (reason received). */
class TallyApply implements Step {
  constructor(
    readonly cell: number,
    readonly scans: number,
  ) {}
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    const cell = cellAt(s, this.cell);
    const ref = s.nextRef();
    const answers = await s.child.call<QueueAnswer[]>({ op: 'tally', cell, scans: this.scans });
    if (answers.length !== 1) s.violation(`tally of ${this.scans} scans of ${keyOf(cell)} applied ${answers.length} adjustments, not one`);
    for (const a of answers) record(s, { kind: 'adjust', cell: keyOf(cell), delta: this.scans, ref }, a);
    await stepCheck(s, this.toString());
  }
  toString = () => `tally(${this.cell}, ${this.scans})`;
}

class Message implements Step {
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    const text = `Mensaje ${s.seed}-${s.nextRef()}`;
    const r = await s.child.call<{ entryId: number }>({ op: 'message', pack: s.pack, text });
    m.messages.push({ text, entryId: r.entryId });
    await stepCheck(s, this.toString());
  }
  toString = () => 'message()';
}

class Sale implements Step {
  constructor(
    readonly cell: number,
    readonly units: number,
  ) {}
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    const cell = cellAt(s, this.cell);
    // Only while the app has nothing on its way for the product: the sale then falls between intents.
    if (!(await s.busy(cell.up))) {
      await s.sell(cell, this.units);
      m.sale(keyOf(cell), this.units);
    }
    await stepCheck(s, this.toString());
  }
  toString = () => `sale(${this.cell}, ${this.units})`;
}

class RaceSale implements Step {
  constructor(
    readonly cell: number,
    readonly quantity: number,
    readonly units: number,
  ) {}
  check = (m: Readonly<ReferenceModel>) => !m.offline;
  async run(m: ReferenceModel, s: System) {
    const cell = cellAt(s, this.cell);
    if (!(await s.busy(cell.up))) {
      // A count held on the wire; a sale on the marketplace meanwhile; then the count goes on: a real conflict.
      const hold = s.proxy.hold((method, path) => method === 'PUT' && path.includes(cell.up), 1);
      const ref = s.nextRef();
      const a = await s.child.call<QueueAnswer>({ op: 'count', cell, quantity: this.quantity, ref });
      const op = record(s, { kind: 'count', cell: keyOf(cell), quantity: this.quantity, ref }, a, true);
      await hold.arrived;
      await s.sell(cell, this.units);
      m.sale(keyOf(cell), this.units, op);
      hold.release();
    }
    await stepCheck(s, this.toString());
  }
  toString = () => `raceSale(${this.cell}, ${this.quantity}, ${this.units})`;
}

class Faults implements Step {
  constructor(readonly level: number) {}
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    if (this.level > 0) s.figures.faults++;
    if (this.level === FAULT_LEVELS.length) {
      if (!m.offline) await s.proxy.goOffline();
      m.offline = true;
    } else {
      if (m.offline) await s.proxy.goOnline();
      m.offline = false;
      s.proxy.setFaults(FAULT_LEVELS[this.level]!);
    }
    await stepCheck(s, this.toString());
  }
  toString = () => `faults(${this.level})`;
}

class Restart implements Step {
  check = () => true;
  async run(_m: ReferenceModel, s: System) {
    s.figures.restarts++;
    await s.child.stop();
    await s.spawn();
    await stepCheck(s, this.toString());
  }
  toString = () => 'restart()';
}

/** SIGKILL, idle or while an edit is being written (its answer may never come: it counts only if it committed). */
class Kill implements Step {
  constructor(
    readonly during: 'idle' | 'adjust' | 'count',
    readonly cell: number,
    readonly value: number,
    readonly afterMs: number,
  ) {}
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    s.figures.kills++;
    const cell = cellAt(s, this.cell);
    const ref = s.nextRef();
    if (this.during === 'adjust') void s.send({ op: 'adjust', cell, delta: this.value, ref });
    if (this.during === 'count') void s.send({ op: 'count', cell, quantity: 60 + this.value, ref });
    // Pacing only: where the kill lands is the point of the step, and any point must be safe.
    if (this.afterMs > 0) await new Promise((r) => setTimeout(r, this.afterMs));
    await s.child.kill();
    await s.spawn();
    if (this.during === 'adjust') await s.recordUnanswered(ref, { kind: 'adjust', cell: keyOf(cell), delta: this.value });
    if (this.during === 'count') await s.recordUnanswered(ref, { kind: 'count', cell: keyOf(cell), quantity: 60 + this.value });
    await stepCheck(s, this.toString());
  }
  toString = () => `kill(${this.during}, ${this.cell}, ${this.value}, ${this.afterMs}ms)`;
}

/**
 * Several edits of one product across its stores (adjustments and counts), queued while sending
 * waits, then let go together: they leave as ONE request (stock-batch.ts), under the faults of the
 * moment, and `killAfterMs` (when set) SIGKILLs the app while that request is on its way.
 */
class ProductEdits implements Step {
  constructor(
    readonly product: number,
    readonly edits: { store: number; delta: number | null; quantity: number }[],
    readonly killAfterMs: number | null,
  ) {}
  check = () => true;
  async run(m: ReferenceModel, s: System) {
    const products = s.cells.length / 2;
    await s.child.call({ op: 'mode', mode: 'offline' });
    for (const e of this.edits) {
      const cell = cellAt(s, (this.product % products) * 2 + (e.store % 2));
      const ref = s.nextRef();
      const command: ChildCommand = e.delta !== null ? { op: 'adjust', cell, ref, delta: e.delta } : { op: 'count', cell, ref, quantity: e.quantity };
      const a = await s.child.call<QueueAnswer>(command);
      record(
        s,
        e.delta !== null ? { kind: 'adjust', cell: keyOf(cell), ref, delta: e.delta } : { kind: 'count', cell: keyOf(cell), ref, quantity: e.quantity },
        a,
      );
    }
    await s.child.call({ op: 'mode', mode: 'online' });
    if (this.killAfterMs !== null) {
      s.figures.kills++;
      // Pacing only: any point of the batch's push must be safe.
      if (this.killAfterMs > 0) await new Promise((r) => setTimeout(r, this.killAfterMs!));
      await s.child.kill();
      await s.spawn();
    }
    await stepCheck(s, this.toString());
  }
  toString = () => `productEdits(${this.product}, ${JSON.stringify(this.edits)}, ${this.killAfterMs === null ? 'no kill' : `kill ${this.killAfterMs}ms`})`;
}

class Settle implements Step {
  constructor(readonly policy: Policy) {}
  check = () => true;
  async run(_m: ReferenceModel, s: System) {
    await settle(s, this.policy);
    s.figures.steps++;
  }
  toString = () => `settle(${JSON.stringify(this.policy)})`;
}

const cellIx = fc.nat(7);
const delta = fc.integer({ min: -3, max: 3 }).filter((d) => d !== 0);
const policy = fc.record({ conflicts: fc.nat(), unknowns: fc.nat() });

/** Every step, weighted as a workday is: mostly edits, now and then trouble. */
export const steps = [
  fc.tuple(cellIx, delta).map(([c, d]) => new Edit('adjust', c, d)),
  fc.tuple(cellIx, delta).map(([c, d]) => new Edit('adjust', c, d)),
  fc.tuple(cellIx, fc.integer({ min: 60, max: 140 })).map(([c, q]) => new Edit('count', c, q)),
  fc.tuple(cellIx, fc.integer({ min: 1, max: 4 })).map(([c, u]) => new Transfer(c, u)),
  fc.constant(new Undo()),
  fc.constant(new Undo()),
  cellIx.map((c) => new Observe(c)),
  fc.integer({ min: -5, max: 5 }).map((o) => new ApplySession(o)),
  fc
    .array(fc.record({ cell: cellIx, delta: fc.option(delta, { nil: null }), quantity: fc.integer({ min: 60, max: 140 }) }), { minLength: 1, maxLength: 3 })
    .map((e) => new Import(e)),
  fc.tuple(cellIx, fc.integer({ min: 1, max: 4 })).map(([c, n]) => new TallyApply(c, n)),
  fc.constant(new Message()),
  fc.tuple(cellIx, fc.integer({ min: 1, max: 3 })).map(([c, u]) => new Sale(c, u)),
  fc.tuple(cellIx, fc.integer({ min: 60, max: 140 }), fc.integer({ min: 1, max: 3 })).map(([c, q, u]) => new RaceSale(c, q, u)),
  fc.integer({ min: 0, max: FAULT_LEVELS.length }).map((l) => new Faults(l)),
  fc.integer({ min: 0, max: FAULT_LEVELS.length }).map((l) => new Faults(l)),
  fc.constant(new Restart()),
  fc
    .tuple(fc.constantFrom('idle' as const, 'adjust' as const, 'count' as const), cellIx, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 15 }))
    .map(([d, c, v, ms]) => new Kill(d, c, v, ms)),
  policy.map((p) => new Settle(p)),
  // Batched pushes (issue 29): several edits of a product across its stores, sometimes killed on the way.
  ...[0, 1].map(() =>
    fc
      .tuple(
        fc.nat(1),
        fc.array(fc.record({ store: fc.nat(1), delta: fc.option(delta, { nil: null, freq: 3 }), quantity: fc.integer({ min: 60, max: 140 }) }), {
          minLength: 2,
          maxLength: 5,
        }),
        fc.option(fc.integer({ min: 0, max: 15 }), { nil: null }),
      )
      .map(([p, e, k]) => new ProductEdits(p, e, k)),
  ),
];

export const program = (maxCommands: number) => fc.tuple(fc.commands(steps, { maxCommands, size: 'max' }), policy);
export { Settle };
