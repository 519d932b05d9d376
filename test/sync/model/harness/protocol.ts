import type { EntryPhase } from '../../../../common/outbox.js';

/** What the parent tells the engine child (engine-child.ts) at its start. */
export interface ChildConfig {
  replicaDir: string;
  /** The fault proxy in front of the remote. */
  url: string;
  token: string;
  sellerId: number;
  /** Attempts before an entry gives up (small, so "outcome unknown" comes within a program). */
  maxAttempts: number;
}

export interface Cell {
  up: string;
  store: string;
}

/** One command of the protocol (a JSON line); its answer is `{ n, ok, value | error }`. */
export type ChildCommand =
  | { op: 'pullIfEmpty' }
  | { op: 'adjust'; cell: Cell; delta: number; ref: string }
  | { op: 'count'; cell: Cell; quantity: number; ref: string }
  | { op: 'transfer'; cell: Cell; to: string; units: number; ref: string }
  | { op: 'observed'; cell: Cell; quantity: number; base: number; ref: string }
  | { op: 'batch'; edits: { cell: Cell; ref: string; delta?: number; quantity?: number }[] }
  /** Scan to count: `scans` scans of the cell's product into its store's tally, then Apply. */
  | { op: 'tally'; cell: Cell; scans: number }
  | { op: 'undo' }
  | { op: 'message'; pack: number; text: string }
  | { op: 'shown'; cells: Cell[] }
  | { op: 'entries' }
  | { op: 'entry'; id: number }
  | { op: 'history'; refs: string[]; undoes: number[] }
  | { op: 'fates'; ids: number[] }
  | { op: 'messagesQueued' }
  | { op: 'retry'; id: number }
  | { op: 'discard'; id: number }
  | { op: 'resolve'; id: number; action: 'keep_mine' | 'take_theirs' }
  | { op: 'mode'; mode: 'online' | 'offline' }
  | { op: 'drain'; timeoutMs: number }
  | { op: 'pull' }
  | { op: 'status' }
  | { op: 'stop' };

/** An active outbox entry as the child reports it. */
export interface EntrySeen {
  id: number;
  kind: string;
  phase: EntryPhase;
  cell: string | null;
  cell2: string | null;
  undoes: number | null;
  lastError: string | null;
}
