import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsStore, defaultSettings, languageOf } from '../../main/desktop/settings.js';
import { defaultDataDir, downloadPath } from '../../main/desktop/paths.js';
import { loadWindowState, restoreBounds, saveWindowState } from '../../main/window-state.js';
import type { Cipher } from '../../main/sync/auth/index.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('stockroom-settings-');

/** A cipher that really changes the bytes (XOR), so a plain token in the file would show. */
const xor: Cipher = {
  encrypt: (s) => Buffer.from(Buffer.from(s, 'utf8').map((b) => b ^ 0x5a)),
  decrypt: (b) => Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8'),
};

describe('settings', () => {
  it('start local-only the first time, and persist every change', async () => {
    const dir = tmp();
    const store = await SettingsStore.open(dir, xor, defaultSettings('pt-BR'));
    expect(store.get()).toEqual({ mode: 'local-only', baseUrl: null, applicationId: null, userId: null, language: 'pt-BR' });
    await store.update({ baseUrl: 'https://api.market.test', applicationId: 42, userId: 7, mode: 'online', accessToken: 'APP_USR-secret-token' });
    const again = await SettingsStore.open(dir, xor);
    expect(again.get()).toEqual({ mode: 'online', baseUrl: 'https://api.market.test', applicationId: 42, userId: 7, language: 'pt-BR' });
    expect(again.accessToken()).toBe('APP_USR-secret-token');
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain('secret');
    await again.update({ accessToken: null });
    expect((await SettingsStore.open(dir, xor)).accessToken()).toBeNull();
  });

  it('a pasted token is bound to the address it was pasted for (issue 25: a new address got it too)', async () => {
    const dir = tmp();
    const store = await SettingsStore.open(dir, xor);
    await store.update({ baseUrl: 'https://api.market.test', applicationId: 42, userId: 7, mode: 'online', accessToken: 'APP_USR-secret-token' });
    expect(store.accessToken()).toBe('APP_USR-secret-token');
    // Only the address changes: the token is not for it.
    await store.update({ baseUrl: 'https://api.other.test' });
    expect(store.accessToken()).toBeNull();
    expect((await SettingsStore.open(dir, xor)).accessToken()).toBeNull();
    // Back on its own address, it is there again; a token pasted with the new address is for that one.
    await store.update({ baseUrl: 'https://api.market.test' });
    expect(store.accessToken()).toBe('APP_USR-secret-token');
    await store.update({ baseUrl: 'https://api.other.test', accessToken: 'APP_USR-other' });
    expect(store.accessToken()).toBe('APP_USR-other');
    expect((await SettingsStore.open(dir, xor)).accessToken()).toBe('APP_USR-other');
    await store.update({ baseUrl: 'https://api.market.test' });
    expect(store.accessToken()).toBeNull();
  });

  it('undoing a change gives the token back bound to its own address, even while another address is current', async () => {
    const dir = tmp();
    const store = await SettingsStore.open(dir, xor);
    await store.update({ baseUrl: 'https://api.market.test', applicationId: 42, userId: 7, mode: 'online', accessToken: 'APP_USR-secret-token' });
    await store.update({ baseUrl: 'https://api.other.test' });
    // What the settings handler keeps before a change it may have to undo.
    const before = store.get();
    const binding = store.tokenBinding();
    expect(binding).toEqual({ token: 'APP_USR-secret-token', tokenFor: 'https://api.market.test' });
    await store.update({ baseUrl: 'https://api.third.test', accessToken: null });
    await store.update({ ...before, accessToken: binding.token }, binding.tokenFor);
    expect(store.accessToken()).toBeNull();
    await store.update({ baseUrl: 'https://api.market.test' });
    expect(store.accessToken()).toBe('APP_USR-secret-token');
  });

  it('a token stored by an older version is bound to the address stored with it', async () => {
    const dir = tmp();
    const old = { version: 1, mode: 'online', baseUrl: 'https://api.market.test', applicationId: 42, userId: 7, language: 'es' };
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ ...old, accessToken: Buffer.from(await xor.encrypt('APP_USR-old')).toString('base64') }));
    const store = await SettingsStore.open(dir, xor);
    expect(store.accessToken()).toBe('APP_USR-old');
    await store.update({ baseUrl: 'https://api.other.test' });
    expect(store.accessToken()).toBeNull();
  });

  it('are written atomically: no temporary file is left, and a broken file means the defaults', async () => {
    const dir = tmp();
    const store = await SettingsStore.open(dir, xor);
    for (let i = 0; i < 5; i++) await store.update({ language: i % 2 ? 'en' : 'es' });
    expect(readdirSync(dir)).toEqual(['settings.json']);
    writeFileSync(join(dir, 'settings.json'), '{"version": 1, "mode": "onl');
    expect((await SettingsStore.open(dir, xor)).get().mode).toBe('local-only');
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ version: 1, mode: 'sideways' }));
    expect((await SettingsStore.open(dir, xor)).get().mode).toBe('local-only');
  });

  it('drop a token that cannot be decrypted (another keychain) instead of failing', async () => {
    const dir = tmp();
    await (await SettingsStore.open(dir, xor)).update({ accessToken: 'APP_USR-x-token' });
    const broken: Cipher = { encrypt: xor.encrypt, decrypt: () => Promise.reject(new Error('wrong key')) };
    const store = await SettingsStore.open(dir, broken);
    expect(store.accessToken()).toBeNull();
  });

  it('keep the theme (issue 28): as the system says at first, then the choice, across a restart and beside the other settings', async () => {
    const dir = tmp();
    const store = await SettingsStore.open(dir, xor, defaultSettings('en'));
    expect(store.prefs().theme).toBe('system');
    await store.update({ theme: 'dark' });
    const again = await SettingsStore.open(dir, xor);
    expect(again.prefs().theme).toBe('dark');
    expect(again.get().language).toBe('en');
    await again.update({ language: 'es' });
    expect((await SettingsStore.open(dir, xor)).prefs()).toMatchObject({ theme: 'dark' });
    // A file written before the theme existed opens as the system says.
    const file = join(dir, 'settings.json');
    const { theme: _dropped, ...older } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(older));
    expect((await SettingsStore.open(dir, xor)).prefs().theme).toBe('system');
  });

  it('pick the language from the system locale', () => {
    expect(languageOf('pt-BR')).toBe('pt-BR');
    expect(languageOf('en-US')).toBe('en');
    expect(languageOf('es-AR')).toBe('es');
    expect(languageOf(undefined)).toBe('es');
  });

  it('live in the same user-data folder as Electron uses', () => {
    expect(defaultDataDir({}, 'linux', '/home/ana')).toBe('/home/ana/.config/Stockroom');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/ana')).toBe('/x/Stockroom');
    expect(defaultDataDir({}, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Application Support/Stockroom');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ana')).toContain('Stockroom');
    expect(defaultDataDir({ STOCKROOM_DATA: '/data' }, 'linux', '/home/ana')).toBe('/data');
  });
});

describe('window state', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1040 }];

  it('is saved and restored when it fits a display', () => {
    const file = join(tmp(), 'window-state.json');
    saveWindowState(file, { x: 100, y: 80, width: 1200, height: 800, maximized: true });
    expect(restoreBounds(loadWindowState(file), screen)).toEqual({ x: 100, y: 80, width: 1200, height: 800, maximized: true });
  });

  it('is ignored when the display it was on is gone, and clamped to a smaller one', () => {
    expect(restoreBounds({ x: 2500, y: 100, width: 1200, height: 800, maximized: false }, screen)).toBeNull();
    expect(restoreBounds({ x: 1800, y: 10, width: 3000, height: 2000, maximized: false }, screen)).toEqual({
      x: 0,
      y: 0,
      width: 1920,
      height: 1040,
      maximized: false,
    });
    expect(restoreBounds(null, screen)).toBeNull();
    expect(loadWindowState('/nonexistent/window-state.json')).toBeNull();
  });
});

describe('the save dialog of an attachment', () => {
  it('always starts inside the downloads folder', () => {
    const downloads = join('/home/ana', 'Downloads');
    expect(downloadPath(downloads, 'remito.pdf')).toBe(join(downloads, 'remito.pdf'));
    expect(downloadPath(downloads, '../../.bashrc')).toBe(join(downloads, '.bashrc'));
    expect(downloadPath(downloads, '..\\..\\evil.exe')).toBe(join(downloads, 'evil.exe'));
    for (const name of ['..', '.', '', 'factura\u202Efdp.exe']) expect(downloadPath(downloads, name)).toBe(join(downloads, 'attachment'));
  });
});
