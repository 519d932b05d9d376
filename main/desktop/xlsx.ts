/**
 * .xlsx in and out (exceljs, in the main process: its browser build is about 900 KB, and the
 * renderer only needs a table of text either way). Import reads the first sheet's cells as text,
 * streamed and bounded (rows, columns, cell length; what the file expands to: xlsx-zip.ts);
 * export writes the bulk editor's layout: item id, user product id, SKU, title, a column per
 * location headed `<name> [<key>]` (what the import reads back), the total, and the queued edits
 * with their reasons (`Pending`) and each cell's newest edit with its reason (`Last change`): notes the import skips.
 */
import type ExcelJS from 'exceljs';

/**
 * exceljs is about 550 CommonJS modules: loaded on the first import or export, not at start (it was
 * most of the module loading before the first grid rows).
 */
let loaded: Promise<typeof ExcelJS> | undefined;
const excel = (): Promise<typeof ExcelJS> => (loaded ??= import('exceljs').then((m) => m.default));
import type { GridColumnView, GridRowView } from '../../common/contract/contract.js';
import { locationColumnHeader } from '../../common/grid-columns.js';
import { LAST_CHANGE_HEADER, PENDING_HEADER, lastChangeNote, pendingNote } from '../../common/pending-note.js';
import { Readable } from 'node:stream';
import { badRequest, isServiceError } from '../service/errors.js';
import { checkWorkbookSize } from './xlsx-zip.js';

/** Rows read from a sheet at most (the import takes 20,000 lines and a header). */
export const MAX_SHEET_ROWS = 20_001;
/** Columns of a row at most (the bulk editor's layout has a few plus one per location). */
export const MAX_SHEET_COLUMNS = 512;
/** Characters of one cell at most (a title is 60, a note a few hundred). */
export const MAX_CELL_CHARS = 10_000;

/** A cell's value as the person sees it (numbers without a thousands separator, dates as ISO days). */
function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('formula' in v || 'sharedFormula' in v) return 'result' in v && v.result !== undefined ? cellText(v.result as ExcelJS.CellValue) : '';
  if ('text' in v) return String(v.text);
  if ('error' in v) return '';
  return '';
}

/** "AB" for column 28. */
function columnName(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** The rows of one streamed sheet, refused as soon as a row, a column or a cell passes its limit. */
async function readRows(sheet: AsyncIterable<ExcelJS.Row>): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const row of sheet) {
    if (row.number > MAX_SHEET_ROWS) throw badRequest(`Too many rows: at most ${MAX_SHEET_ROWS - 1} per import`);
    if (row.cellCount > MAX_SHEET_COLUMNS) throw badRequest(`Too many columns: at most ${MAX_SHEET_COLUMNS} (row ${row.number})`);
    const cells: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) {
      const text = cellText(row.getCell(c).value);
      if (text.length > MAX_CELL_CHARS) throw badRequest(`Cell ${columnName(c)}${row.number} is longer than ${MAX_CELL_CHARS.toLocaleString('en')} characters`);
      cells.push(text.trim());
    }
    rows[row.number - 1] = cells;
  }
  for (let i = 0; i < rows.length; i++) rows[i] ??= [];
  return rows;
}

/** What the streaming reader knows of the workbook once its workbook.xml was read. */
interface ReaderModel {
  model?: { sheets?: { name?: string }[] };
}

/**
 * The first sheet of a workbook as rows of text; a file that is not a workbook is a 400. The file
 * is first checked for what it expands to (xlsx-zip.ts), then streamed: rows are read one at a
 * time and the limits (rows, columns, cell length) are checked as they come, so a hostile file is
 * refused early with what is wrong, never loaded whole.
 */
export async function readWorkbook(bytes: Uint8Array): Promise<string[][]> {
  await checkWorkbookSize(bytes);
  const ExcelJS = await excel();
  const input = Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let rows: string[][] | undefined;
  try {
    for await (const sheet of reader) {
      // Read: the rest is only walked through, so exceljs removes the temporary copies it makes
      // of sheets that come before the shared strings (a refusal stops at once instead).
      if (rows !== undefined) continue;
      // The first sheet in the workbook's order (the parts may come in another order).
      const first = (reader as unknown as ReaderModel).model?.sheets?.[0]?.name;
      const name = (sheet as unknown as { name?: string }).name;
      if (first !== undefined && name !== undefined && name !== first) continue;
      rows = await readRows(sheet);
    }
  } catch (e) {
    if (isServiceError(e)) throw e;
    throw badRequest('Not a readable .xlsx workbook');
  }
  if (rows === undefined) throw badRequest('The workbook has no sheet');
  return rows;
}

export const columnHeader = locationColumnHeader;

/** The grid as a workbook: one sheet, a frozen header row, quantities as numbers. */
export async function gridWorkbook(columns: GridColumnView[], rows: GridRowView[]): Promise<Uint8Array> {
  const wb = new (await excel()).Workbook();
  wb.creator = 'Stockroom';
  const sheet = wb.addWorksheet('Stock', { views: [{ state: 'frozen', ySplit: 1, xSplit: 4 }] });
  sheet.columns = [
    { header: 'Item ID', key: 'item', width: 16 },
    { header: 'User product ID', key: 'up', width: 18 },
    { header: 'SKU', key: 'sku', width: 16 },
    { header: 'Title', key: 'title', width: 48 },
    ...columns.map((c) => ({ header: columnHeader(c), key: `c:${c.key}`, width: 18 })),
    { header: 'Total', key: 'total', width: 10 },
    { header: PENDING_HEADER, key: 'pending', width: 48 },
    { header: LAST_CHANGE_HEADER, key: 'last', width: 48 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const r of rows) {
    let total = 0;
    const values: (string | number | null)[] = [(r.itemIds ?? [])[0] ?? '', r.userProductId, r.sku ?? '', r.title ?? ''];
    for (const c of columns) {
      const cell = r.cells[c.key];
      values.push(cell ? cell.shown : null);
      total += cell?.shown ?? 0;
    }
    values.push(total, pendingNote(columns, r), lastChangeNote(columns, r));
    // Text cells stay text: a title starting with = is not a formula (exceljs writes strings as shared strings).
    sheet.addRow(values);
  }
  const out = await wb.xlsx.writeBuffer();
  return new Uint8Array(out as ArrayBuffer);
}
