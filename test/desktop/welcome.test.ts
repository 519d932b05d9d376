import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DesktopCore } from '../../main/desktop/core.js';
import { SettingsStore } from '../../main/desktop/settings.js';
import { type Cipher, type SafeStorageLike, plainCipher, safeStorageCipher } from '../../main/sync/auth/index.js';
import { tempDirs } from '../support/temp-dir.js';
import { failure, value } from './helpers.js';

const tmp = tempDirs('stockroom-welcome-');

const open = (dataDir: string, extra: { welcome?: boolean; cipher?: Cipher } = {}) =>
  DesktopCore.open({
    dataDir,
    log: () => undefined,
    ...(extra.welcome !== undefined ? { welcome: extra.welcome } : {}),
    host: { shell: 'browser', ...(extra.cipher ? { cipher: extra.cipher } : {}) },
  });

/** Electron's safeStorage as a Linux machine without a keychain reports it (backend basic_text). */
const basicText: SafeStorageLike = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'basic_text',
  encryptString: (s) => Buffer.from(Buffer.from(s, 'utf8').map((b) => b ^ 0x21)),
  decryptString: (b) => Buffer.from(b.map((x) => x ^ 0x21)).toString('utf8'),
};

describe('the first run', () => {
  it('is a first run until the person chooses; the choice is saved and survives a restart', async () => {
    const dir = tmp();
    const first = await open(dir, { welcome: true });
    try {
      expect(value(await first.api.settings.get())).toMatchObject({ firstRun: true, mode: 'local-only', keepSignedIn: true, accounts: [] });
      // The app behind the welcome is the demo data, named as such.
      expect(value(await first.api.session.status())).toMatchObject({ mode: 'local-only', via: 'demo', siteId: null });
      // Changing the language on the welcome screen is not a choice.
      value(await first.api.settings.update({ language: 'en' }));
      expect(value(await first.api.settings.get()).firstRun).toBe(true);
    } finally {
      await first.close();
    }
    // Quitting before choosing: still a first run.
    const again = await open(dir, { welcome: true });
    try {
      expect(value(await again.api.settings.get())).toMatchObject({ firstRun: true, language: 'en' });
      const chosen = value(await again.api.settings.update({ start: 'demo' }));
      expect(chosen).toMatchObject({ firstRun: false, mode: 'local-only' });
    } finally {
      await again.close();
    }
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toMatchObject({ start: 'demo' });
    const third = await open(dir, { welcome: true });
    try {
      expect(value(await third.api.settings.get()).firstRun).toBe(false);
    } finally {
      await third.close();
    }
  });

  it('never asks where the shell does not ask (tools and tests opening a core), and not a folder used before the welcome existed', async () => {
    const fresh = await open(tmp());
    try {
      expect(value(await fresh.api.settings.get()).firstRun).toBe(false);
    } finally {
      await fresh.close();
    }
    // A settings file of an earlier version: the person has been using the app.
    const dir = tmp();
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ version: 1, mode: 'local-only', baseUrl: null, applicationId: null, userId: null, language: 'es', accessToken: null }),
    );
    const old = await open(dir, { welcome: true });
    try {
      expect(value(await old.api.settings.get())).toMatchObject({ firstRun: false, keepSignedIn: true });
    } finally {
      await old.close();
    }
  });

  it('refuses a site the marketplace does not have', async () => {
    const c = await open(tmp(), { welcome: true });
    try {
      expect(failure(await c.api.settings.update({ siteId: 'XXX' })).code).toBe('bad_request');
      expect(value(await c.api.settings.update({ siteId: 'MLB' })).siteId).toBe('MLB');
    } finally {
      await c.close();
    }
  });
});

describe('how a kept sign-in is protected', () => {
  it('reports the cipher’s protection to the screens: none, obfuscated (no keychain), keychain', async () => {
    const none = await open(tmp(), { cipher: plainCipher });
    try {
      expect(value(await none.api.settings.get()).tokenProtection).toBe('none');
    } finally {
      await none.close();
    }
    const obfuscated = await open(tmp(), { cipher: safeStorageCipher(basicText, { allowBasicText: true }) });
    try {
      expect(value(await obfuscated.api.settings.get()).tokenProtection).toBe('obfuscated');
    } finally {
      await obfuscated.close();
    }
    const keychain = await open(tmp(), { cipher: safeStorageCipher({ ...basicText, getSelectedStorageBackend: () => 'gnome_libsecret' }) });
    try {
      expect(value(await keychain.api.settings.get()).tokenProtection).toBe('keychain');
    } finally {
      await keychain.close();
    }
  });

  it('keeps a pasted token in memory only when the person chose not to stay signed in', async () => {
    const dir = tmp();
    const store = await SettingsStore.open(dir, plainCipher);
    await store.update({ keepSignedIn: false, accessToken: 'APP_USR-memory-only-token' });
    expect(store.accessToken()).toBe('APP_USR-memory-only-token');
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain('memory-only');
    // After a restart it is gone: the person pastes it (or signs in) again.
    expect((await SettingsStore.open(dir, plainCipher)).accessToken()).toBeNull();
    // Staying signed in again writes it (through the cipher).
    await store.update({ keepSignedIn: true });
    expect((await SettingsStore.open(dir, plainCipher)).accessToken()).toBe('APP_USR-memory-only-token');
    expect(existsSync(join(dir, 'credentials.db'))).toBe(false);
  });
});
