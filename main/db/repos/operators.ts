import type { Db } from '../open.js';

export interface OperatorRow {
  id: number;
  name: string;
  pin_salt: Buffer;
  pin_hash: Buffer;
  created_at: number;
  disabled: 0 | 1;
}

/** The operators of this workstation (migration 025); the only SQL of them. */
export function operatorsRepo(db: Db) {
  const insert = db.prepare<[{ name: string; pin_salt: Buffer; pin_hash: Buffer; created_at: number }]>(
    'INSERT INTO operators (name, pin_salt, pin_hash, created_at) VALUES (@name, @pin_salt, @pin_hash, @created_at)',
  );
  const active = db.prepare<[], OperatorRow>('SELECT * FROM operators WHERE disabled = 0 ORDER BY name COLLATE NOCASE, id');
  const byId = db.prepare<[number], OperatorRow>('SELECT * FROM operators WHERE id = ? AND disabled = 0');
  const byName = db.prepare<[string], OperatorRow>('SELECT * FROM operators WHERE name = ? COLLATE NOCASE AND disabled = 0');
  const disable = db.prepare<[number]>('UPDATE operators SET disabled = 1 WHERE id = ? AND disabled = 0');
  return {
    insert: (o: { name: string; pin_salt: Buffer; pin_hash: Buffer; created_at: number }) => Number(insert.run(o).lastInsertRowid),
    /** The operators not removed, by name. */
    active: () => active.all(),
    /** An operator not removed. */
    byId: (id: number) => byId.get(id),
    byName: (name: string) => byName.get(name),
    /** False when there was no such operator left to remove. */
    disable: (id: number) => disable.run(id).changes === 1,
  };
}
export type OperatorsRepo = ReturnType<typeof operatorsRepo>;
