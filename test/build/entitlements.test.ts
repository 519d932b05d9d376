/**
 * The macOS entitlements of the hardened runtime (build/entitlements.mac.plist, for the app and,
 * through entitlementsInherit, its helpers): exactly what Electron needs, nothing wider. Parsed
 * with `plist`, the parser electron-builder's signing uses (@electron/osx-sign).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const plist = z.object({ parse: z.custom<(xml: string) => unknown>((f) => typeof f === 'function') }).parse(require('plist'));

/** An entitlements file is a dictionary of entitlement → true (an entitlement set to false is one too many). */
const Entitlements = z.record(z.string(), z.literal(true));

/** Every key, and why the app needs it. A key added to the file without a reason here fails the test. */
const NEEDED: Record<string, string> = {
  // V8's JIT maps writable and executable memory (MAP_JIT): without it the hardened runtime kills
  // every Electron process at start. The one entitlement @electron/osx-sign gives the app, the
  // renderer and the GPU helpers.
  'com.apple.security.cs.allow-jit': 'V8 JIT',
};

const NEVER = [
  // Only @electron/osx-sign's plugin helper gets it (Pepper plugins; the app loads none).
  'com.apple.security.cs.allow-unsigned-executable-memory',
  // Would let any unsigned dylib load into the app; better-sqlite3's module is signed with the app.
  'com.apple.security.cs.disable-library-validation',
  // Would let DYLD_* variables inject code into the signed app.
  'com.apple.security.cs.allow-dyld-environment-variables',
  // Would let other processes attach a debugger.
  'com.apple.security.get-task-allow',
];

describe('macOS entitlements', () => {
  const file = Entitlements.parse(plist.parse(readFileSync(join(root, 'build', 'entitlements.mac.plist'), 'utf8')));

  it('are exactly the ones Electron needs: allow-jit', () => {
    expect(Object.keys(file).sort()).toEqual(Object.keys(NEEDED).sort());
  });

  it('never widen the hardened runtime: no unsigned executable memory, no foreign libraries, no DYLD injection, no debugger', () => {
    for (const key of NEVER) expect(file, key).not.toHaveProperty([key]);
  });

  it('are the ones electron-builder signs the app and its helpers with', () => {
    const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    expect(yml).toMatch(/^ {2}entitlements: build\/entitlements\.mac\.plist$/m);
    expect(yml).toMatch(/^ {2}entitlementsInherit: build\/entitlements\.mac\.plist$/m);
    expect(yml).toMatch(/^ {2}hardenedRuntime: true$/m);
  });
});
