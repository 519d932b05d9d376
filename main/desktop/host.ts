import type { Cipher } from '../sync/auth/index.js';

/** What the shell around the core provides: Electron's shell and dialogs, or the browser mode's. */
export interface DesktopHost {
  shell: 'electron' | 'browser';
  /** Opens a URL in the system browser. The core checks the allow-list before calling it. */
  openExternal?: ((url: string) => Promise<void>) | undefined;
  /** Main-process file dialogs (Electron); absent in the browser mode. */
  dialogs?:
    | {
        openFiles(): Promise<string[]>;
        saveFile(defaultName: string): Promise<string | null>;
      }
    | undefined;
  /** Encryption of stored tokens (Electron: the OS keychain through safeStorage); plain bytes otherwise. */
  cipher?: Cipher | undefined;
}
