/**
 * A barcode scanner, driven from a test or a bench: the e2e scanning flows and `npm run bench ui`
 * typed codes with this same key-by-key timing, each with its own copy.
 */
import type { CDPSession, Page } from 'playwright-core';

/** A scanner's keys: well under the app's scan detector's 35 ms apart (a person's are well over). */
export const SCANNER_GAP_MS = 5;

const cdpSessions = new WeakMap<Page, CDPSession>();

/**
 * Types `code` and Enter as a scanner does, wherever focus is: real key events through the
 * browser's input pipeline, each stamped SCANNER_GAP_MS after the one before (the time a keyboard
 * event carries is the device's, which CDP lets the caller give). A busy machine delivers them
 * later, but with the scanner's own timing: nothing depends on how fast the machine is.
 */
export async function scan(page: Page, code: string): Promise<void> {
  let cdp = cdpSessions.get(page);
  if (!cdp) cdpSessions.set(page, (cdp = await page.context().newCDPSession(page)));
  let at = Date.now() / 1000;
  for (const ch of [...code, 'Enter']) {
    at += SCANNER_GAP_MS / 1000;
    const enter = ch === 'Enter';
    const upper = ch.toUpperCase();
    const key = {
      key: ch,
      code: enter ? 'Enter' : /\d/.test(ch) ? `Digit${ch}` : /[A-Z]/i.test(ch) ? `Key${upper}` : '',
      windowsVirtualKeyCode: enter ? 13 : upper.charCodeAt(0),
      timestamp: at,
    };
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...key, text: enter ? '\r' : ch });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key });
  }
}
