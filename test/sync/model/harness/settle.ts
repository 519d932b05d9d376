import { NO_FAULTS } from '../../../support/fault-proxy.js';
import type { System } from './system.js';

/** What the person does with what the app shows at a settle: their choice for each conflict and each entry of unknown outcome. */
export interface Policy {
  /** Bits: entry id's bit chooses keep mine (1) or take theirs (0). */
  conflicts: number;
  /** Bits: retry (1) or discard (0) an entry of unknown outcome. */
  unknowns: number;
}

const bit = (mask: number, id: number) => ((mask >>> (id % 31)) & 1) === 1;

/**
 * A settle: the network is back, the person acts on everything the app shows (conflicts,
 * unknown outcomes, refusals) until nothing is left, then the app pulls. Checked then, against
 * the reference model: nothing is left in the outbox; a conflict only where the remote really
 * changed under a count; every cell of the remote holds what the model says and the app shows
 * it; every message the person sent is on the remote once (none of those they dropped).
 */
export async function settle(s: System, policy: Policy): Promise<void> {
  const { model, child } = s;
  s.figures.settles++;
  s.proxy.setFaults(NO_FAULTS);
  if (model.offline) {
    await s.proxy.goOnline();
    model.offline = false;
  }
  await child.call({ op: 'mode', mode: 'online' });
  const discarded = new Set<number>();
  for (let round = 0; ; round++) {
    await child.call({ op: 'drain', timeoutMs: 60_000 });
    const entries = await s.entries();
    if (entries.length === 0) break;
    if (round > 12) {
      s.violation(`the outbox did not settle: ${JSON.stringify(entries)}`);
      return;
    }
    let acted = false;
    for (const e of entries) {
      if (e.phase === 'conflict') {
        s.figures.conflicts++;
        const op = model.ops.find((o) => o.entryId === e.id && o.kind === 'count');
        s.conflictSeen.add(e.id);
        if (!op?.expectConflict && !op?.mayConflict) s.violation(`a conflict nobody caused: entry ${e.id} (${op?.ref ?? 'no edit of the model'})`);
        const keep = bit(policy.conflicts, e.id);
        await child.call({ op: 'resolve', id: e.id, action: keep ? 'keep_mine' : 'take_theirs' });
        acted = true;
      } else if (e.phase === 'unknown') {
        s.figures.unknowns++;
        if (bit(policy.unknowns, e.id) || discarded.has(e.id)) await child.call({ op: 'retry', id: e.id });
        else {
          discarded.add(e.id);
          const r = await child.call<{ how: string }>({ op: 'discard', id: e.id });
          if (r.how !== 'checking') s.violation(`discard of entry ${e.id} of unknown outcome answered ${r.how}, not checking`);
        }
        acted = true;
      } else if (e.phase === 'refused') {
        // Failed with nothing of it applied (sending gave up after a 409 proved its request was not
        // applied, or a batch member of unknown outcome learnt not applied when a mate was sent
        // again, stock-batch-learn.ts): retry or discard, as the person chooses. Nothing the model
        // does can be refused for good (no take below 0), so only these causes are expected; the
        // final check still compares every cell with the model.
        if (!/gave up after|^Not applied: its request never reached the marketplace/.test(e.lastError ?? ''))
          s.violation(`entry ${e.id} was refused: ${e.lastError}`);
        if (bit(policy.unknowns, e.id + 1) && !discarded.has(e.id)) await child.call({ op: 'retry', id: e.id });
        else await child.call({ op: 'discard', id: e.id });
        discarded.add(e.id);
        acted = true;
      }
    }
    if (!acted) await new Promise((r) => setTimeout(r, 20));
  }
  await child.call({ op: 'pull' });
  await check(s);
}

async function check(s: System): Promise<void> {
  const { model, child } = s;
  // The fates the person's choices gave: an entry discarded or taken theirs drops its edits.
  const ids = [...new Set(model.ops.map((o) => o.entryId).filter((id): id is number => id !== null))];
  const fates = await child.call<Record<string, { dropped: boolean; state: string | null }>>({ op: 'fates', ids });
  for (const op of model.ops) if (op.entryId !== null && fates[op.entryId]?.dropped && !op.dropped) model.drop(op);
  for (const op of model.ops) {
    if (op.entryId === null || op.dropped || op.kind === 'sale') continue;
    const f = fates[op.entryId];
    if (f?.state !== 'done') s.violation(`${op.ref ?? `op ${op.seq}`} (entry ${op.entryId}) is ${f?.state ?? 'gone'} but was neither dropped nor applied`);
  }
  // The other half: a count the remote really changed under was never applied silently over it.
  for (const op of model.ops)
    if (op.expectConflict && op.entryId !== null && !op.dropped && fates[op.entryId]?.state === 'done' && !s.conflictSeen.has(op.entryId))
      s.violation(`${op.ref} (entry ${op.entryId}): the remote changed under this count, and it was applied without being shown as a conflict`);
  const remote = await s.remote();
  const expected = model.expected();
  const shown = await child.call<number[]>({ op: 'shown', cells: s.cells });
  s.cells.forEach((c, i) => {
    const k = `${c.up}|seller_warehouse|${c.store}`;
    if (remote.get(k) !== expected.get(k)) s.violation(`cell ${k}: the remote holds ${remote.get(k)}, the model expects ${expected.get(k)}`);
    if (shown[i] !== remote.get(k)) s.violation(`cell ${k}: the app shows ${shown[i]} while the remote holds ${remote.get(k)}`);
  });
  const texts = await s.remoteTexts();
  const msgFates = await child.call<Record<string, { dropped: boolean; state: string | null }>>({ op: 'fates', ids: model.messages.map((m) => m.entryId) });
  for (const m of model.messages) {
    const copies = texts.filter((t) => t === m.text).length;
    const f = msgFates[m.entryId];
    const want = f?.state === 'done' ? 1 : 0;
    if (f?.state !== 'done' && f?.state !== null) s.violation(`message ${m.text} is ${f?.state} after the settle`);
    if (copies !== want) s.violation(`message ${m.text}: ${copies} copies on the remote, ${want} expected (${f?.state ?? 'gone'})`);
  }
  model.settled(remote);
}
