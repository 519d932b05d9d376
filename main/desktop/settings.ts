import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Language, Mode, Theme } from '../../common/contract/contract.js';
import type { Cipher } from '../sync/auth/index.js';

/**
 * The app's settings: one small JSON file in the data folder, written atomically (a temp file,
 * fsync, rename, fsync of the folder), so a crash leaves the old file or the new one, never half.
 * A pasted access token is stored encrypted by the injected cipher (the OS keychain in Electron)
 * and never leaves the main process; with "don't keep me signed in" it is kept in memory only.
 * It is bound to the marketplace address it was pasted with: another address never gets it.
 */

export interface Settings {
  mode: Mode;
  baseUrl: string | null;
  applicationId: number | null;
  /** The seller of the remote profile: from the sign-in, or given with a pasted token. */
  userId: number | null;
  language: Language;
}

/** An account the app has opened (signed in to): its replica stays in `remote/<host>-<seller>`. */
export interface KnownAccount {
  baseUrl: string;
  applicationId: number;
  userId: number;
  siteId: string | null;
  /** Learned from the first pull (the marketplace's user record). */
  nickname: string | null;
}

/** The first run and the accounts: kept apart from `Settings` so that shape stays as it was. */
export interface Prefs {
  /** What the person chose on the welcome screen; null: never chose (a first run). */
  start: 'demo' | 'account' | null;
  /** The marketplace site (country) of the account being connected or open. */
  siteId: string | null;
  /** False: sign-ins and pasted tokens live in memory only (signing in again after a restart). */
  keepSignedIn: boolean;
  accounts: KnownAccount[];
  /** The screens' colours (Settings › Appearance). */
  theme: Theme;
}

const MAX_ACCOUNTS = 20;

export const SETTINGS_FILE = 'settings.json';

const knownAccount = z.object({
  baseUrl: z.string().max(500),
  applicationId: z.number().int().positive(),
  userId: z.number().int().positive(),
  siteId: z.string().max(10).nullable(),
  nickname: z.string().max(200).nullable(),
});

const stored = z.object({
  version: z.literal(1),
  mode: z.enum(['local-only', 'online', 'offline']),
  baseUrl: z.string().max(500).nullable(),
  applicationId: z.number().int().positive().nullable(),
  userId: z.number().int().positive().nullable(),
  language: z.enum(['es', 'pt-BR', 'en']),
  /** base64 of the cipher's output; null when no token was pasted (or it is kept in memory only). */
  accessToken: z.string().nullable(),
  /** The address the token was pasted for; absent in older files (then the stored address). */
  accessTokenFor: z.string().max(500).nullable().optional(),
  // Added after the first release: absent in older files.
  start: z.enum(['demo', 'account']).nullable().optional(),
  siteId: z.string().max(10).nullable().optional(),
  keepSignedIn: z.boolean().optional(),
  accounts: z.array(knownAccount).max(MAX_ACCOUNTS).optional(),
  theme: z.enum(['system', 'light', 'dark']).optional(),
});
type Stored = z.infer<typeof stored>;

const defaultPrefs = (): Prefs => ({ start: null, siteId: null, keepSignedIn: true, accounts: [], theme: 'system' });

const pickSettings = (v: Settings): Settings => ({
  mode: v.mode,
  baseUrl: v.baseUrl,
  applicationId: v.applicationId,
  userId: v.userId,
  language: v.language,
});

/** The first start: local-only on the demo data. */
export function defaultSettings(language: Language = 'es'): Settings {
  return { mode: 'local-only', baseUrl: null, applicationId: null, userId: null, language };
}

/** Picks the app language from a locale such as `pt-BR`, `es-AR`, `en-US`. */
export function languageOf(locale: string | undefined): Language {
  const l = (locale ?? '').toLowerCase();
  if (l.startsWith('pt')) return 'pt-BR';
  if (l.startsWith('en')) return 'en';
  return 'es';
}

export function writeFileAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  // The rename itself survives a power cut once the folder is synced (not possible on Windows).
  try {
    const dir = openSync(dirname(file), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Windows cannot open a folder for fsync; NTFS journals the rename.
  }
}

export class SettingsStore {
  readonly file: string;
  private value: Settings;
  private token: string | null;
  /** The marketplace address `token` was pasted for. */
  private tokenFor: string | null;
  private extra: Prefs;

  private constructor(
    file: string,
    private readonly cipher: Cipher,
    value: Settings,
    token: string | null,
    extra: Prefs = defaultPrefs(),
    tokenFor: string | null = value.baseUrl,
  ) {
    this.file = file;
    this.value = value;
    this.token = token;
    this.tokenFor = token === null ? null : tokenFor;
    this.extra = extra;
  }

  /** Reads the settings of a data folder; a missing or unreadable file gives the defaults (first start). */
  static async open(dataDir: string, cipher: Cipher, defaults: Settings = defaultSettings()): Promise<SettingsStore> {
    const file = join(dataDir, SETTINGS_FILE);
    let data: Stored | undefined;
    try {
      const parsed = stored.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.success) data = parsed.data;
      else console.warn(`settings: ${file} is not valid, starting from the defaults`);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') console.warn(`settings: cannot read ${file}, starting from the defaults`);
    }
    if (!data) return new SettingsStore(file, cipher, { ...defaults }, null);
    let token: string | null = null;
    if (data.accessToken !== null) {
      try {
        token = await cipher.decrypt(Buffer.from(data.accessToken, 'base64'));
      } catch {
        console.warn('settings: the stored access token cannot be decrypted (another keychain?); it was dropped');
      }
    }
    const { mode, baseUrl, applicationId, userId, language } = data;
    const prefs: Prefs = {
      // A file from before the welcome existed: the person has been using the app already.
      start: data.start !== undefined ? data.start : mode === 'local-only' ? 'demo' : 'account',
      siteId: data.siteId ?? null,
      keepSignedIn: data.keepSignedIn ?? true,
      accounts: data.accounts ?? [],
      theme: data.theme ?? 'system',
    };
    // A file from before the binding: the token was pasted for the address stored with it.
    const tokenFor = data.accessTokenFor !== undefined ? data.accessTokenFor : baseUrl;
    return new SettingsStore(file, cipher, { mode, baseUrl, applicationId, userId, language }, token, prefs, tokenFor);
  }

  get(): Settings {
    return { ...this.value };
  }

  /** The first-run choice, the site, whether to stay signed in, the known accounts. */
  prefs(): Prefs {
    return { ...this.extra, accounts: this.extra.accounts.map((a) => ({ ...a })) };
  }

  /** Adds or refreshes an account of the list (newest first); fields given as null keep what was known. */
  /** Whether the list changed. */
  async rememberAccount(a: KnownAccount): Promise<boolean> {
    const same = (x: KnownAccount) => x.baseUrl === a.baseUrl && x.userId === a.userId;
    const old = this.extra.accounts.find(same);
    const merged: KnownAccount = { ...a, siteId: a.siteId ?? old?.siteId ?? null, nickname: a.nickname ?? old?.nickname ?? null };
    if (old && JSON.stringify(old) === JSON.stringify(merged)) return false;
    const accounts = [merged, ...this.extra.accounts.filter((x) => !same(x))].slice(0, MAX_ACCOUNTS);
    await this.update({ accounts });
    return true;
  }

  /** The pasted access token when it was pasted for the current address, or null. Main process only. */
  accessToken(): string | null {
    return this.token !== null && this.tokenFor === this.value.baseUrl ? this.token : null;
  }

  /** The pasted token and the address it is bound to, whatever the current address (what undoing a change restores). */
  tokenBinding(): { token: string | null; tokenFor: string | null } {
    return { token: this.token, tokenFor: this.tokenFor };
  }

  /**
   * Applies a change and writes the file; `accessToken: null` removes the pasted token. `bindTo`:
   * the address a given token belongs to (default: the address these settings end with); undoing
   * a change gives back the token's own binding.
   */
  async update(patch: Partial<Settings & Prefs> & { accessToken?: string | null }, bindTo?: string | null): Promise<Settings> {
    const { accessToken, ...rest } = patch;
    const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    const merged = { ...this.value, ...this.extra, ...given };
    const next = pickSettings(merged);
    const extra: Prefs = { start: merged.start, siteId: merged.siteId, keepSignedIn: merged.keepSignedIn, accounts: merged.accounts, theme: merged.theme };
    const token = accessToken === undefined ? this.token : accessToken;
    // A token given now is for the address these settings end with; one kept stays with its own
    // (one pasted before any address was set is for the first address set).
    const tokenFor = token === null ? null : accessToken === undefined ? (this.tokenFor ?? next.baseUrl) : bindTo !== undefined ? bindTo : next.baseUrl;
    // Not kept on this computer: the token stays in memory, the file never sees it.
    const blob = token === null || !extra.keepSignedIn ? null : Buffer.from(await this.cipher.encrypt(token)).toString('base64');
    const data: Stored = { version: 1, ...next, accessToken: blob, accessTokenFor: blob === null ? null : tokenFor, ...extra };
    writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
    this.value = next;
    this.extra = extra;
    this.token = token;
    this.tokenFor = tokenFor;
    return this.get();
  }
}
