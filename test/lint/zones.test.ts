import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import zones of eslint.config.js, shown failing: the real ESLint with the project's config
 * lints a forbidden import written into a file of each zone (the text is linted, the file on disk
 * is untouched).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import zones', () => {
  it.each([
    ['main/service/errors.ts', "import { contract } from '../../preload/contract.js';\nexport const x = contract;\n", /common\//],
    ['main/service/errors.ts', "import { app } from 'electron';\nexport const x = app;\n", /no Electron/],
    ['main/service/errors.ts', "import { request } from 'undici';\nexport const x = request;\n", /no Electron, HTTP framework or HTTP client/],
    ['main/db/open.ts', "import { SyncEngine } from '../sync/engine.js';\nexport const x = SyncEngine;\n", /sync engine/],
    ['main/db/open.ts', "import { DesktopCore } from '../desktop/core.js';\nexport const x = DesktopCore;\n", /desktop shell/],
    ['renderer/main.tsx', "import { openDatabase } from '../main/db/open.js';\nexport const x = openDatabase;\n", /never imports main/],
    ['renderer/main.tsx', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", /Node built-ins/],
    ['preload/api.ts', "import { ServiceError } from '../main/service/errors.js';\nexport const x = ServiceError;\n", /never imports main/],
    ['common/cells.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", /only itself and zod/],
    ['common/cells.ts', "import { contract } from '../preload/contract.js';\nexport const x = contract;\n", /only itself and zod/],
  ])('%s: %s is refused', async (file, code, why) => {
    const messages = await restricted(file, code);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.join('\n')).toMatch(why);
  });

  it('allows what each zone may import', async () => {
    expect(await restricted('main/service/errors.ts', "import { cellKey } from '../../common/cells.js';\nexport const x = cellKey;\n")).toEqual([]);
    expect(await restricted('renderer/main.tsx', "import { cellKey } from '../common/cells.js';\nexport const x = cellKey;\n")).toEqual([]);
    expect(
      await restricted('common/cells.ts', "import { z } from 'zod';\nimport { ERROR_CODES } from './errors.js';\nexport const x = [z, ERROR_CODES];\n"),
    ).toEqual([]);
  });
});
