import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Language, Mode } from '../../preload/contract.js';
import type { Cipher } from '../sync/auth/index.js';

/**
 * The app's settings: one small JSON file in the data folder, written atomically (a temp file,
 * fsync, rename, fsync of the folder), so a crash leaves the old file or the new one, never half.
 * A pasted access token is stored encrypted by the injected cipher (the OS keychain in Electron)
 * and never leaves the main process.
 */

export interface Settings {
  mode: Mode;
  baseUrl: string | null;
  applicationId: number | null;
  /** The seller of the remote profile: from the sign-in, or given with a pasted token. */
  userId: number | null;
  language: Language;
}

export const SETTINGS_FILE = 'settings.json';

const stored = z.object({
  version: z.literal(1),
  mode: z.enum(['local-only', 'online', 'offline']),
  baseUrl: z.string().max(500).nullable(),
  applicationId: z.number().int().positive().nullable(),
  userId: z.number().int().positive().nullable(),
  language: z.enum(['es', 'pt-BR', 'en']),
  /** base64 of the cipher's output; null when no token was pasted. */
  accessToken: z.string().nullable(),
});
type Stored = z.infer<typeof stored>;

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

  private constructor(
    file: string,
    private readonly cipher: Cipher,
    value: Settings,
    token: string | null,
  ) {
    this.file = file;
    this.value = value;
    this.token = token;
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
    return new SettingsStore(file, cipher, { mode, baseUrl, applicationId, userId, language }, token);
  }

  get(): Settings {
    return { ...this.value };
  }

  /** The pasted access token, or null. Main process only. */
  accessToken(): string | null {
    return this.token;
  }

  /** Applies a change and writes the file; `accessToken: null` removes the pasted token. */
  async update(patch: Partial<Settings> & { accessToken?: string | null }): Promise<Settings> {
    const { accessToken, ...rest } = patch;
    const next: Settings = { ...this.value, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) };
    const token = accessToken === undefined ? this.token : accessToken;
    const blob = token === null ? null : Buffer.from(await this.cipher.encrypt(token)).toString('base64');
    const data: Stored = { version: 1, ...next, accessToken: blob };
    writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
    this.value = next;
    this.token = token;
    return this.get();
  }
}
