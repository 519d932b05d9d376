import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../main/service/errors.js';
import { readWorkbook } from '../../main/desktop/xlsx.js';
import { XLSX_LIMITS } from '../../main/desktop/xlsx-zip.js';
import { rowBomb, rowXml, sharedStringsXml, sheetXml, workbook } from '../support/xlsx-files.js';

/**
 * Hostile .xlsx files (issue 25: one under the 20 MB cap took 3.6 GB, another expanded to one
 * 300 MB cell sent to the renderer), all generated here. Each is refused with a 400 that says what
 * is wrong, before it is read whole: what the zip expands to (declared or real), how many sheets
 * and shared strings, then rows, columns and cell length as the sheet streams.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'stockroom-xlsx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(bytes: Uint8Array): Promise<{ status: number; message: string }> {
  try {
    await readWorkbook(bytes);
  } catch (e) {
    if (!isServiceError(e)) throw e;
    return { status: e.status, message: e.message };
  }
  throw new Error('the workbook was read');
}

describe('a generated workbook', () => {
  it('reads back (the generator makes real workbooks)', async () => {
    const rows = await readWorkbook(workbook({ sheets: [sheetXml(rowXml(1, ['Item ID', 'Stock']) + rowXml(2, ['MLA1', '7']))] }));
    expect(rows).toEqual([
      ['Item ID', 'Stock'],
      ['MLA1', '7'],
    ]);
  });
});

describe('hostile workbooks are refused early, with what is wrong', () => {
  it('one 100 MB cell (a 100 KB file)', async () => {
    const big = Buffer.concat([
      Buffer.from(sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>').replace('</t></is></c></row></sheetData></worksheet>', '')),
      Buffer.alloc(100 * 1024 * 1024, 'x'),
      Buffer.from('</t></is></c></row></sheetData></worksheet>'),
    ]);
    const file = workbook({ sheets: [big] });
    expect(file.byteLength).toBeLessThan(1024 * 1024);
    expect(await refusal(file)).toEqual({ status: 400, message: expect.stringMatching(/xl\/worksheets\/sheet1\.xml expands to more than 64 MB/) as unknown });
  });

  it('a part that claims to be small and inflates past the limit', async () => {
    const file = workbook({ sheets: [Buffer.concat([Buffer.from(sheetXml('')), Buffer.alloc(80 * 1024 * 1024, ' ')])], declared: { 0: 1000 } });
    expect((await refusal(file)).message).toMatch(/expands to more than 64 MB/);
  });

  it('parts that together expand past the limit', async () => {
    const part = Buffer.concat([Buffer.from(sheetXml('')), Buffer.alloc(50 * 1024 * 1024, ' ')]);
    expect((await refusal(workbook({ sheets: [part, part, part] }))).message).toMatch(/expands to more than 128 MB/);
  });

  it('one cell longer than 10,000 characters', async () => {
    const file = workbook({ sheets: [sheetXml(rowXml(1, ['id']) + rowXml(2, ['MLA1', 'y'.repeat(1_000_000)]))] });
    expect(await refusal(file)).toEqual({ status: 400, message: 'Cell B2 is longer than 10,000 characters' });
  });

  it('many sheets', async () => {
    const file = workbook({ sheets: Array.from({ length: XLSX_LIMITS.maxSheets + 1 }, () => sheetXml(rowXml(1, ['a']))) });
    expect((await refusal(file)).message).toBe(
      `This workbook cannot be imported: it has ${XLSX_LIMITS.maxSheets + 1} sheets (at most ${XLSX_LIMITS.maxSheets})`,
    );
  });

  it('huge shared strings', async () => {
    const file = workbook({
      sheets: [sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row>')],
      sharedStrings: sharedStringsXml(XLSX_LIMITS.maxSharedStrings + 1),
    });
    expect((await refusal(file)).message).toBe('This workbook cannot be imported: it has more than 250,000 distinct texts');
  });

  it('a row far down, or a column far right', async () => {
    expect((await refusal(workbook({ sheets: [sheetXml('<row r="1048576"><c r="A1048576"><v>1</v></c></row>')] }))).message).toBe(
      'Too many rows: at most 20000 per import',
    );
    expect((await refusal(workbook({ sheets: [sheetXml('<row r="1"><c r="XFD1"><v>1</v></c></row>')] }))).message).toBe(
      'Too many columns: at most 512 (row 1)',
    );
  });

  it('a row bomb under the size limits is refused by a process with a 200 MB heap', () => {
    // 1.2 million rows (about 45 MB of XML, 1 MB zipped): read whole, it takes gigabytes.
    const file = join(dir, 'rows.xlsx');
    writeFileSync(file, workbook({ sheets: [rowBomb(1_200_000)] }));
    const script = `import { readFileSync } from 'node:fs';
      import { readWorkbook } from './main/desktop/xlsx.ts';
      readWorkbook(new Uint8Array(readFileSync(process.argv[1]))).then(() => console.log('read'), (e) => console.log('refused: ' + e.message));`;
    const r = spawnSync(process.execPath, ['--max-old-space-size=200', '--import', 'tsx', '--input-type=module', '-e', script, file], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect({ status: r.status, out: r.stdout.trim() }).toEqual({ status: 0, out: 'refused: Too many rows: at most 20000 per import' });
  });
});
