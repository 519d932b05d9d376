import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronBinary, electronBinaryIn } from '../../main/desktop/launch.js';

const root = resolve(import.meta.dirname, '../..');

describe('npm start: finding Electron', () => {
  it("finds this checkout's binary exactly when Electron's installer recorded one", () => {
    // On machines that cannot download Electron the package is there but path.txt and dist/ are not.
    const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
    const found = electronBinary(root, {});
    if (existsSync(pathFile)) expect(found).toBe(join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim()));
    else expect(found).toBeNull();
  });

  it('uses ELECTRON_OVERRIDE_DIST_PATH when it holds a binary', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-electron-'));
    try {
      expect(electronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: dir })).toBeNull();
      mkdirSync(dir, { recursive: true });
      const exe = join(dir, process.platform === 'win32' ? 'electron.exe' : 'electron');
      writeFileSync(exe, '#!/bin/sh\n');
      chmodSync(exe, 0o755);
      expect(electronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: dir })).toBe(exe);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds nothing where the electron package is not installed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-noelectron-'));
    try {
      writeFileSync(join(dir, 'package.json'), '{}');
      expect(electronBinary(dir, {})).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds the binary Electron's installer recorded in a package folder (what npm start checks after a download)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-electron-pkg-'));
    try {
      expect(electronBinaryIn(dir, {})).toBeNull();
      const relative = process.platform === 'win32' ? 'electron.exe' : 'electron';
      writeFileSync(join(dir, 'path.txt'), relative);
      // path.txt without the binary (an interrupted extraction) is not an installed Electron.
      expect(electronBinaryIn(dir, {})).toBeNull();
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist', relative), '');
      expect(electronBinaryIn(dir, {})).toBe(join(dir, 'dist', relative));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
