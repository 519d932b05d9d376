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
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('import zones', () => {
  it.each([
    ['main/service/errors.ts', "import { contract } from '../../preload/index.js';\nexport const x = contract;\n", /common\//],
    ['main/service/errors.ts', "import { app } from 'electron';\nexport const x = app;\n", /no Electron/],
    ['main/service/errors.ts', "import { request } from 'undici';\nexport const x = request;\n", /no Electron, HTTP framework or HTTP client/],
    ['main/db/open.ts', "import { SyncEngine } from '../sync/engine.js';\nexport const x = SyncEngine;\n", /sync engine/],
    ['main/db/open.ts', "import { DesktopCore } from '../desktop/core.js';\nexport const x = DesktopCore;\n", /desktop shell/],
    ['renderer/main.tsx', "import { openDatabase } from '../main/db/open.js';\nexport const x = openDatabase;\n", /never imports main/],
    ['renderer/main.tsx', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", /Node built-ins/],
    ['preload/index.ts', "import { ServiceError } from '../main/service/errors.js';\nexport const x = ServiceError;\n", /never imports main/],
    ['common/cells.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", /only itself and zod/],
    ['common/cells.ts', "import { contract } from '../preload/index.js';\nexport const x = contract;\n", /only itself and zod/],
    // Issue 26's probes: each passed lint before the zones were closed.
    ['main/service/errors.ts', "import { registerIpc } from '../ipc/register.js';\nexport const x = registerIpc;\n", /IPC adapter/],
    ['main/service/errors.ts', "import { startWeb } from '../web/run.js';\nexport const x = startWeb;\n", /browser-mode adapter/],
    ['main/service/errors.ts', "export const x = () => import('electron');\n", /no Electron.*\(dynamic import\)/],
    ['main/desktop/core.ts', "import { app } from 'electron';\nexport const x = app;\n", /main\/desktop has no Electron/],
    ['main/sync/engine.ts', "import { DesktopCore } from '../desktop/core.js';\nexport const x = DesktopCore;\n", /never reaches into the desktop shell/],
    ['main/sync/engine.ts', "import { net } from 'electron';\nexport const x = net;\n", /runs under Node alone/],
    ['renderer/main.tsx', "import { readFileSync } from 'fs';\nexport const x = readFileSync;\n", /Node built-ins/],
    ['renderer/main.tsx', "import Database from 'better-sqlite3';\nexport const x = Database;\n", /no Node-only packages/],
    ['preload/index.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", /Node built-ins/],
    // The rest of the closed zones.
    ['main/http/app.ts', "import { App } from '../../renderer/frame/App.js';\nexport const x = App;\n", /never imports the screens/],
    ['main/http/app.ts', "import { api } from '../../preload/index.js';\nexport const x = api;\n", /contract lives in common\/contract/],
    ['main/desktop/core.ts', "export const x = () => import('../http/app.js');\n", /HTTP adapter.*\(dynamic import\)/],
    ['renderer/main.tsx', "export const x = () => import('node:child_process');\n", /Node built-ins.*\(dynamic import\)/],
    ['renderer/main.tsx', "export const x = () => import('fs/promises');\n", /Node built-ins.*\(dynamic import\)/],
    ['renderer/main.tsx', "import { request } from 'undici';\nexport const x = request;\n", /no Node-only packages/],
    [
      'renderer/inbox/store.ts',
      "import { ERROR_CODES } from '../../common/contract/contract.js';\nexport const x = ERROR_CODES;\n",
      /only types from the contract/,
    ],
    ['common/cells.ts', "export const x = () => import('react');\n", /only itself and zod.*\(dynamic import\)/],
  ])('%s: %s is refused', async (file, code, why) => {
    const messages = await restricted(file, code);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.join('\n')).toMatch(why);
  });

  it('allows what each zone may import', async () => {
    expect(await restricted('main/service/errors.ts', "import { cellKey } from '../../common/cells.js';\nexport const x = cellKey;\n")).toEqual([]);
    expect(await restricted('renderer/main.tsx', "import { cellKey } from '../common/cells.js';\nexport const x = cellKey;\n")).toEqual([]);
    // A package whose name starts like a built-in is not one; a lazy screen is a dynamic import of the renderer's own.
    expect(await restricted('renderer/main.tsx', "import { create } from 'zustand';\nexport const x = create;\n")).toEqual([]);
    expect(await restricted('renderer/main.tsx', "export const x = () => import('./stock/StockTab.js');\n")).toEqual([]);
    expect(
      await restricted('renderer/inbox/store.ts', "import type { ApiError } from '../../common/contract/contract.js';\nexport type X = ApiError;\n"),
    ).toEqual([]);
    expect(
      await restricted(
        'main/sync/engine.ts',
        "import { request } from 'undici';\nimport { openDatabase } from '../db/open.js';\nexport const x = [request, openDatabase];\n",
      ),
    ).toEqual([]);
    expect(await restricted('main/desktop/core.ts', "import { SyncEngine } from '../sync/engine.js';\nexport const x = SyncEngine;\n")).toEqual([]);
    expect(
      await restricted(
        'preload/index.ts',
        "import { contextBridge } from 'electron';\nimport { createApi } from '../common/contract/api.js';\nexport const x = [contextBridge, createApi];\n",
      ),
    ).toEqual([]);
    expect(
      await restricted('common/cells.ts', "import { z } from 'zod';\nimport { ERROR_CODES } from './errors.js';\nexport const x = [z, ERROR_CODES];\n"),
    ).toEqual([]);
  });
});
