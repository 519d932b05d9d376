import { describe, expect, it } from 'vitest';
import { ENTRY_PHASES, ENTRY_STATES, OUTBOX_KINDS } from '../../../common/outbox.js';
import { NO_KINDS } from '../../../main/sync/kinds/index.js';
import { TRANSITIONS, phaseOf } from '../../../main/sync/model.js';
import { newReplica } from '../../support/sync-harness.js';

/** The outbox's vocabulary is declared once (common/outbox.ts): the SQL, the registry and the model follow it. */
describe('the outbox kinds and states, written once', () => {
  it('the live schema refuses a kind or a state outside the lists, and takes each one in them', () => {
    const replica = newReplica();
    try {
      const insert = (kind: string, state: string) =>
        replica.db
          .prepare(
            `INSERT INTO sync_outbox (kind, lane, state, idempotency_key, next_attempt_at, created_at, updated_at, cell)
             VALUES (?, 'l', ?, 'k', 0, 0, 0, CASE WHEN ? = 'stock' THEN 'c' END)`,
          )
          .run(kind, state, kind);
      for (const kind of OUTBOX_KINDS) for (const state of ENTRY_STATES) expect(() => insert(kind, state)).not.toThrow();
      expect(() => insert('transfer_v2', 'pending')).toThrow(/CHECK/);
      expect(() => insert('stock', 'lost')).toThrow(/CHECK/);
    } finally {
      replica.remove();
    }
  });

  it('every kind has a handler in the registry, and the model names a transition table for every phase', () => {
    expect(Object.keys(NO_KINDS).sort()).toEqual([...OUTBOX_KINDS].sort());
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...ENTRY_PHASES].sort());
  });

  it('derives the phase the person is told from the stored row', () => {
    const row = { state: 'pending' as const, sent_version: null, sent_at: null, withdraw: 0 };
    expect(phaseOf(row)).toBe('queued');
    expect(phaseOf({ ...row, sent_version: '3', sent_at: 1 })).toBe('on_wire');
    expect(phaseOf({ ...row, state: 'in_flight' })).toBe('on_wire');
    expect(phaseOf({ ...row, withdraw: 1, sent_version: '3', sent_at: 1 })).toBe('checking');
    expect(phaseOf({ ...row, state: 'failed', sent_version: '3', sent_at: 1 })).toBe('unknown');
    expect(phaseOf({ ...row, state: 'failed' })).toBe('refused');
    expect(phaseOf({ ...row, state: 'conflict' })).toBe('conflict');
    expect(phaseOf({ ...row, state: 'done' })).toBe('done');
  });
});
