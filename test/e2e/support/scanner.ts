/**
 * A barcode scanner, driven from a test or a bench: the e2e scanning flows and `npm run bench ui`
 * typed codes with this same key-by-key timing, each with its own copy.
 */
import type { CDPSession, Page } from 'playwright-core';

/** A scanner's keys: well under the app's scan detector's 35 ms apart (a person's are well over). */
export const SCANNER_GAP_MS = 5;

const cdpSessions = new WeakMap<Page, CDPSession>();

/** How a scanner is set up: the key it ends a code with, and the time between its keys. */
export interface ScanOptions {
  /** Enter (the default) or Tab (a common factory setting). */
  end?: 'Enter' | 'Tab';
  /** Milliseconds between keys; SCANNER_GAP_MS by default, 40 for a slow scanner the app must not take for one. */
  gapMs?: number;
}

const END_KEYS = {
  Enter: { code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' },
  Tab: { code: 'Tab', windowsVirtualKeyCode: 9, text: '' },
} as const;

/**
 * Types `code` and Enter (or Tab) as a scanner does, wherever focus is: real key events through
 * the browser's input pipeline, each stamped `gapMs` (SCANNER_GAP_MS) after the one before (the
 * time a keyboard event carries is the device's, which CDP lets the caller give). A busy machine
 * delivers them later, but with the scanner's own timing: nothing depends on how fast the machine is.
 */
export async function scan(page: Page, code: string, options: ScanOptions = {}): Promise<void> {
  const gap = options.gapMs ?? SCANNER_GAP_MS;
  const end = options.end ?? 'Enter';
  let cdp = cdpSessions.get(page);
  if (!cdp) cdpSessions.set(page, (cdp = await page.context().newCDPSession(page)));
  let at = Date.now() / 1000;
  for (const ch of [...code, end]) {
    at += gap / 1000;
    const last = ch === end && ch.length > 1;
    const upper = ch.toUpperCase();
    const key = last
      ? { key: ch, code: END_KEYS[end].code, windowsVirtualKeyCode: END_KEYS[end].windowsVirtualKeyCode, timestamp: at }
      : { key: ch, code: /\d/.test(ch) ? `Digit${ch}` : /[A-Z]/i.test(ch) ? `Key${upper}` : '', windowsVirtualKeyCode: upper.charCodeAt(0), timestamp: at };
    const text = last ? END_KEYS[end].text : ch;
    await cdp.send('Input.dispatchKeyEvent', { type: text === '' ? 'rawKeyDown' : 'keyDown', ...key, ...(text === '' ? {} : { text }) });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key });
  }
}
