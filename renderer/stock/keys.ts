/**
 * The stock grid's keys as pure functions: a key press and where the grid stands in, what to do
 * out (null: the key is not the grid's, its default action goes ahead). Grid.tsx and GridEditor.tsx
 * carry the answers out on the store.
 *
 * On a cell: arrows move, Tab / Shift+Tab move sideways and wrap to the next / previous row (and
 * leave the grid at its ends), Home / End go to the first / last column (with Ctrl or Cmd also
 * the first / last row), PageUp / PageDown move a screenful; Enter or F2 edit the value, typing a
 * digit or a sign starts an edit with it. In the editor: Enter saves and moves down, Tab saves and
 * moves sideways, Esc cancels.
 */
import { startsEdit } from './parse.js';

/** What the handlers read of a keyboard event. */
export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

export interface GridKeyState {
  /** A cell's editor is open (it handles its own keys). */
  editing: boolean;
  active: { row: number; col: number };
  lastRow: number;
  lastCol: number;
  /** Rows moved by PageUp / PageDown; asked only for those keys (it measures the viewport). */
  rowsPerPage: () => number;
}

/** Moves are not clamped here: the store's moveTo keeps them on the grid. */
export type GridKeyAction = { kind: 'move'; row: number; col: number } | { kind: 'edit'; text?: string } | { kind: 'undo' } | { kind: 'transfer' };

export function gridKeyAction(e: KeyPress, s: GridKeyState): GridKeyAction | null {
  if (s.editing || e.altKey) return null;
  const { row, col } = s.active;
  const { lastRow, lastCol } = s;
  const mod = e.ctrlKey || e.metaKey;
  const move = (r: number, c: number): GridKeyAction => ({ kind: 'move', row: r, col: c });
  switch (e.key) {
    case 'ArrowUp':
      return move(row - 1, col);
    case 'ArrowDown':
      return move(row + 1, col);
    case 'ArrowLeft':
      return move(row, col - 1);
    case 'ArrowRight':
      return move(row, col + 1);
    case 'Home':
      return move(mod ? 0 : row, 0);
    case 'End':
      return move(mod ? lastRow : row, lastCol);
    case 'PageUp':
      return move(row - s.rowsPerPage(), col);
    case 'PageDown':
      return move(row + s.rowsPerPage(), col);
    case 'Tab':
      if (e.shiftKey) {
        if (col > 0) return move(row, col - 1);
        if (row > 0) return move(row - 1, lastCol);
        return null;
      }
      if (col < lastCol) return move(row, col + 1);
      if (row < lastRow) return move(row + 1, 0);
      return null;
    case 'Enter':
    case 'F2':
      return { kind: 'edit' };
    // Ctrl+Z (Cmd+Z) undoes the person's last edit; Ctrl+M (Cmd+M) opens a transfer from the focused cell.
    case 'z':
    case 'Z':
      return mod && !e.shiftKey ? { kind: 'undo' } : null;
    case 'm':
    case 'M':
      return mod && !e.shiftKey ? { kind: 'transfer' } : null;
    default:
      if (!mod && startsEdit(e.key)) return { kind: 'edit', text: e.key };
      return null;
  }
}

export type EditorKeyAction = { kind: 'commit'; move: 'down' | 'right' | 'left' } | { kind: 'cancel' };

export function editorKeyAction(e: Pick<KeyPress, 'key' | 'shiftKey'>): EditorKeyAction | null {
  if (e.key === 'Enter') return { kind: 'commit', move: 'down' };
  if (e.key === 'Tab') return { kind: 'commit', move: e.shiftKey ? 'left' : 'right' };
  if (e.key === 'Escape') return { kind: 'cancel' };
  return null;
}
