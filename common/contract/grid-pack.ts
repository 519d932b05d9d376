/**
 * Grid rows packed for the trip from main to the renderer (issue 29). A scan's answer carries its
 * row's page: 50 rows × every store, 144 KB as full cell views, most of it the same keys, ids and
 * empty fields in every cell, and the scan waited on those bytes crossing two processes. A cell
 * holding nothing but its figures (no entry, conflict or error: nearly every cell) travels as a
 * short array; any other cell travels as it is. Packed by the adapters (main/ipc, main/web),
 * unpacked by `createApi`: the renderer and every other caller of the api see the contract's views,
 * unchanged. Runtime-neutral: bundled into the preload and the renderer.
 */
import { cellKey } from '../cells.js';
import { channelName } from './channels.js';
import type { Result } from './contract.js';
import type { CellLockView, CellView, GridRowView } from '../views.js';

/** A cell with nothing but its figures: [type, storeId, shown, remote quantity, remote version, state, editable, lock?]. */
type PlainCell =
  | [CellView['type'], string | null, number, number | null, string | null, CellView['state'], boolean]
  | [CellView['type'], string | null, number, number | null, string | null, CellView['state'], boolean, CellLockView];
/** Any other cell, whole, with its column key. */
interface WholeCell {
  key: string;
  cell: CellView;
}
type PackedCell = PlainCell | WholeCell;
type PackedRow = Omit<GridRowView, 'cells'> & { $cells: PackedCell[] };

/** The fields of a cell view: a cell with any other field, or without one of these, travels whole. */
const CELL_FIELDS = new Set(['userProductId', 'type', 'storeId', 'cell', 'remote', 'shown', 'state', 'editable', 'entries', 'conflict', 'error', 'lock']);
const hasExactly = (o: object, fields: Set<string>) => {
  const keys = Object.keys(o);
  return keys.length === fields.size && keys.every((k) => fields.has(k));
};
const REMOTE_FIELDS = new Set(['quantity', 'version']);

const columnKeyOf = (type: string, storeId: string | null) => (type === 'seller_warehouse' ? (storeId ?? '') : type);

function packCell(row: GridRowView, key: string, c: CellView): PackedCell {
  const plain =
    hasExactly(c, CELL_FIELDS) &&
    c.userProductId === row.userProductId &&
    key === columnKeyOf(c.type, c.storeId) &&
    c.cell === cellKey(row.userProductId, c.type, c.storeId ?? '') &&
    hasExactly(c.remote, REMOTE_FIELDS) &&
    Array.isArray(c.entries) &&
    c.entries.length === 0 &&
    c.conflict === null &&
    c.error === null;
  const lock = c.lock;
  if (!plain || lock === undefined) return { key, cell: c };
  const head: PlainCell = [c.type, c.storeId, c.shown, c.remote.quantity, c.remote.version, c.state, c.editable];
  return lock === null ? head : [...head, lock];
}

function unpackCell(userProductId: string, p: PackedCell): [string, CellView] {
  if (!Array.isArray(p)) return [p.key, p.cell];
  const [type, storeId, shown, quantity, version, state, editable, lock] = p;
  return [
    columnKeyOf(type, storeId),
    {
      userProductId,
      type,
      storeId,
      cell: cellKey(userProductId, type, storeId ?? ''),
      remote: { quantity, version },
      shown,
      state,
      editable,
      entries: [],
      conflict: null,
      error: null,
      lock: lock ?? null,
    },
  ];
}

export function packRows(rows: GridRowView[]): PackedRow[] {
  return rows.map((row) => {
    const { cells, ...rest } = row;
    return { ...rest, $cells: Object.entries(cells).map(([key, c]) => packCell(row, key, c)) };
  });
}

export function unpackRows(rows: PackedRow[]): GridRowView[] {
  return rows.map((packed) => {
    const { $cells, ...rest } = packed;
    const cells: Record<string, CellView> = {};
    for (const p of $cells) {
      const [key, cell] = unpackCell(packed.userProductId, p);
      cells[key] = cell;
    }
    return { ...rest, cells };
  });
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where an answer's value holds grid rows: the object whose `rows` they are (a grid, the import preview's rows, a locate's page). */
const ROWS_HOLDER: Record<string, (value: Rec) => unknown> = {
  [channelName('stock', 'grid')]: (v) => v,
  [channelName('stock', 'rows')]: (v) => v,
  [channelName('stock', 'locate')]: (v) => (isRec(v.page) ? v.page.grid : undefined),
};

/** A copy of an answer's value with its holder's `from` rows replaced by `f` of them as `to` (the value as it is when it has none). */
function mapRows(channel: string, value: unknown, from: 'rows' | '$rows', to: 'rows' | '$rows', f: (rows: never[]) => unknown[]): unknown {
  const holderOf = ROWS_HOLDER[channel];
  if (!holderOf || !isRec(value)) return value;
  const holder = holderOf(value);
  if (!isRec(holder) || !Array.isArray(holder[from])) return value;
  const { [from]: rows, ...rest } = holder;
  const replaced = { ...rest, [to]: f(rows as never[]) };
  return holder === value ? replaced : { ...value, page: { ...(value.page as Rec), grid: replaced } };
}

/** A channel's answer as it travels (`channel`: the contract's channel name, as CHANNELS lists it). */
export function packAnswer(channel: string, result: Result<unknown>): Result<unknown> {
  if (!result.ok) return result;
  const value = mapRows(channel, result.value, 'rows', '$rows', packRows);
  return value === result.value ? result : { ok: true, value };
}

/** An answer as it arrived, back in the contract's shape (an answer that was not packed passes as it is). */
export function unpackAnswer(channel: string, answer: unknown): unknown {
  if (!isRec(answer) || answer.ok !== true) return answer;
  const value = mapRows(channel, answer.value, '$rows', 'rows', unpackRows);
  return value === answer.value ? answer : { ...answer, value };
}
