import { describe, expect, it } from 'vitest';
import { type GridKeyState, type KeyPress, editorKeyAction, gridKeyAction } from '../../../renderer/stock/keys.js';

const press = (key: string, mods: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});
/** Row 5, column 2 of a grid of 100 rows × 4 store columns, 10 rows a screen. */
const at = (row = 5, col = 2, more: Partial<GridKeyState> = {}): GridKeyState => ({
  editing: false,
  active: { row, col },
  lastRow: 99,
  lastCol: 3,
  rowsPerPage: () => 10,
  ...more,
});

describe('the stock grid keys, on a cell', () => {
  it('Enter and F2 edit the current value; typing a digit or a sign starts an edit with it', () => {
    expect(gridKeyAction(press('Enter'), at())).toEqual({ kind: 'edit' });
    expect(gridKeyAction(press('F2'), at())).toEqual({ kind: 'edit' });
    expect(gridKeyAction(press('7'), at())).toEqual({ kind: 'edit', text: '7' });
    expect(gridKeyAction(press('0'), at())).toEqual({ kind: 'edit', text: '0' });
    expect(gridKeyAction(press('+'), at())).toEqual({ kind: 'edit', text: '+' });
    expect(gridKeyAction(press('-'), at())).toEqual({ kind: 'edit', text: '-' });
    // With Ctrl or Cmd a digit is a shortcut, not an edit; other keys are not the grid's.
    expect(gridKeyAction(press('5', { ctrlKey: true }), at())).toBeNull();
    expect(gridKeyAction(press('5', { metaKey: true }), at())).toBeNull();
    expect(gridKeyAction(press('a'), at())).toBeNull();
    expect(gridKeyAction(press('Escape'), at())).toBeNull();
  });

  it('arrows move one cell (the store keeps the move on the grid)', () => {
    expect(gridKeyAction(press('ArrowUp'), at())).toEqual({ kind: 'move', row: 4, col: 2 });
    expect(gridKeyAction(press('ArrowDown'), at())).toEqual({ kind: 'move', row: 6, col: 2 });
    expect(gridKeyAction(press('ArrowLeft'), at())).toEqual({ kind: 'move', row: 5, col: 1 });
    expect(gridKeyAction(press('ArrowRight'), at())).toEqual({ kind: 'move', row: 5, col: 3 });
    expect(gridKeyAction(press('ArrowUp'), at(0, 0))).toEqual({ kind: 'move', row: -1, col: 0 });
    expect(gridKeyAction(press('ArrowDown', { shiftKey: true }), at())).toEqual({ kind: 'move', row: 6, col: 2 });
  });

  it('Tab and Shift+Tab move sideways, wrap to the next or previous row, and leave the grid at its ends', () => {
    expect(gridKeyAction(press('Tab'), at())).toEqual({ kind: 'move', row: 5, col: 3 });
    expect(gridKeyAction(press('Tab'), at(5, 3))).toEqual({ kind: 'move', row: 6, col: 0 });
    expect(gridKeyAction(press('Tab'), at(99, 3))).toBeNull();
    expect(gridKeyAction(press('Tab', { shiftKey: true }), at())).toEqual({ kind: 'move', row: 5, col: 1 });
    expect(gridKeyAction(press('Tab', { shiftKey: true }), at(5, 0))).toEqual({ kind: 'move', row: 4, col: 3 });
    expect(gridKeyAction(press('Tab', { shiftKey: true }), at(0, 0))).toBeNull();
  });

  it('Home / End go to the first / last column, with Ctrl or Cmd the first / last row; PageUp / PageDown a screenful', () => {
    expect(gridKeyAction(press('Home'), at())).toEqual({ kind: 'move', row: 5, col: 0 });
    expect(gridKeyAction(press('End'), at())).toEqual({ kind: 'move', row: 5, col: 3 });
    expect(gridKeyAction(press('Home', { ctrlKey: true }), at())).toEqual({ kind: 'move', row: 0, col: 0 });
    expect(gridKeyAction(press('End', { metaKey: true }), at())).toEqual({ kind: 'move', row: 99, col: 3 });
    expect(gridKeyAction(press('PageDown'), at())).toEqual({ kind: 'move', row: 15, col: 2 });
    expect(gridKeyAction(press('PageUp'), at())).toEqual({ kind: 'move', row: -5, col: 2 });
  });

  it('measures a screenful only for PageUp / PageDown', () => {
    let measured = 0;
    const rowsPerPage = () => ++measured;
    gridKeyAction(press('ArrowDown'), at(5, 2, { rowsPerPage }));
    gridKeyAction(press('7'), at(5, 2, { rowsPerPage }));
    expect(measured).toBe(0);
    gridKeyAction(press('PageDown'), at(5, 2, { rowsPerPage }));
    expect(measured).toBe(1);
  });

  it('leaves every key alone while a cell is edited, and with Alt held', () => {
    for (const key of ['Enter', 'Escape', 'ArrowDown', 'Tab', '7', '+']) {
      expect(gridKeyAction(press(key), at(5, 2, { editing: true }))).toBeNull();
      expect(gridKeyAction(press(key, { altKey: true }), at())).toBeNull();
    }
  });
});

describe('the stock grid keys, in a cell editor', () => {
  it('Enter saves and moves down, Tab / Shift+Tab save and move sideways, Escape cancels', () => {
    expect(editorKeyAction(press('Enter'))).toEqual({ kind: 'commit', move: 'down' });
    expect(editorKeyAction(press('Tab'))).toEqual({ kind: 'commit', move: 'right' });
    expect(editorKeyAction(press('Tab', { shiftKey: true }))).toEqual({ kind: 'commit', move: 'left' });
    expect(editorKeyAction(press('Escape'))).toEqual({ kind: 'cancel' });
  });

  it('leaves typing and the arrows to the input', () => {
    for (const key of ['7', '+', '-', 'ArrowDown', 'ArrowLeft', 'Backspace']) expect(editorKeyAction(press(key))).toBeNull();
  });
});

describe('undo and transfer keys (issue 14 §5, §6)', () => {
  const at = { editing: false, active: { row: 3, col: 1 }, lastRow: 9, lastCol: 2, rowsPerPage: () => 5 };
  const press = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }> = {}) =>
    gridKeyAction({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods }, at);
  it('Ctrl+Z / Cmd+Z undo, Ctrl+M / Cmd+M transfer; plain letters and the editor are left alone', () => {
    expect(press('z', { ctrlKey: true })).toEqual({ kind: 'undo' });
    expect(press('z', { metaKey: true })).toEqual({ kind: 'undo' });
    expect(press('m', { ctrlKey: true })).toEqual({ kind: 'transfer' });
    expect(press('z')).toBeNull();
    expect(press('m')).toBeNull();
    expect(press('Z', { ctrlKey: true, shiftKey: true })).toBeNull();
    expect(gridKeyAction({ key: 'z', shiftKey: false, ctrlKey: true, metaKey: false, altKey: false }, { ...at, editing: true })).toBeNull();
  });
});
