import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PUBLISHER_NAMES } from '../../main/updater-electron.js';

/**
 * What a signed release needs, stated where a release is made (issue 25): electron-builder.yml
 * names the Windows publisher (written into app-update.yml, which electron-updater checks every
 * downloaded installer against) and the same names as the app's own dev config, turns on update
 * signature verification, and notarizes on macOS when the credentials are there; docs/releasing.md
 * says how.
 */
const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };

const builder = z.object({
  win: z.object({
    verifyUpdateCodeSignature: z.boolean().optional(),
    signtoolOptions: z.object({
      publisherName: z.union([z.string(), z.array(z.string())]),
      signingHashAlgorithms: z.array(z.string()),
      rfc3161TimeStampServer: z.string().url(),
    }),
  }),
  mac: z.object({ hardenedRuntime: z.literal(true), notarize: z.literal(true) }),
  publish: z.object({ provider: z.string(), url: z.string().startsWith('https://') }),
});

describe('signing settings of a release', () => {
  const config = builder.parse(yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')));

  it('names the Windows publisher the updater checks, with sha256 and a timestamp', () => {
    expect(config.win.verifyUpdateCodeSignature).not.toBe(false);
    const names = [config.win.signtoolOptions.publisherName].flat();
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual([...PUBLISHER_NAMES]);
    expect(config.win.signtoolOptions.signingHashAlgorithms).toEqual(['sha256']);
  });

  it('notarizes macOS builds (hardened runtime) when the build host has the credentials', () => {
    expect(config.mac).toMatchObject({ hardenedRuntime: true, notarize: true });
  });

  it('docs/releasing.md says how to sign for Windows and notarize for macOS', () => {
    const file = join(root, 'docs', 'releasing.md');
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    for (const term of [
      'WIN_CSC_LINK',
      'WIN_CSC_KEY_PASSWORD',
      'publisherName',
      'CSC_LINK',
      'APPLE_ID',
      'APPLE_APP_SPECIFIC_PASSWORD',
      'APPLE_TEAM_ID',
      'notariz',
      'STOCKROOM_UPDATE_FEED',
    ]) {
      expect(text, term).toContain(term);
    }
  });
});
