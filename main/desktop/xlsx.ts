/**
 * .xlsx in and out (exceljs, in the main process: its browser build is about 900 KB, and the
 * renderer only needs a table of text either way). Import reads the first sheet's cells as text;
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
import type { GridColumnView, GridRowView } from '../../preload/contract.js';
import { LAST_CHANGE_HEADER, PENDING_HEADER, lastChangeNote, pendingNote } from '../../common/pending-note.js';
import { badRequest } from '../service/errors.js';

/** Rows read from a sheet at most (the import takes 20,000 lines and a header). */
export const MAX_SHEET_ROWS = 20_001;

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

/** The first sheet of a workbook as rows of text; a file that is not a workbook is a 400. */
export async function readWorkbook(bytes: Uint8Array): Promise<string[][]> {
  const wb = new (await excel()).Workbook();
  try {
    await wb.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer);
  } catch {
    throw badRequest('Not a readable .xlsx workbook');
  }
  const sheet = wb.worksheets[0];
  if (!sheet) throw badRequest('The workbook has no sheet');
  if (sheet.rowCount > MAX_SHEET_ROWS) throw badRequest(`Too many rows: at most ${MAX_SHEET_ROWS - 1} per import`);
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, n) => {
    const cells: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value).trim());
    rows[n - 1] = cells;
  });
  for (let i = 0; i < rows.length; i++) rows[i] ??= [];
  return rows;
}

export const columnHeader = (c: Pick<GridColumnView, 'label' | 'key'>) => `${c.label} [${c.key}]`;

/** The grid as a workbook: one sheet, a frozen header row, quantities as numbers. */
export async function gridWorkbook(columns: GridColumnView[], rows: GridRowView[], skus: Map<string, string>): Promise<Uint8Array> {
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
    const values: (string | number | null)[] = [(r.itemIds ?? [])[0] ?? '', r.userProductId, skus.get(r.userProductId) ?? '', r.title ?? ''];
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
