/**
 * Barcode scanners type like a keyboard: the code's characters a few milliseconds apart, then
 * Enter. A person never types that fast, so a burst of at least SCAN_MIN_LENGTH characters whose
 * keys came on average under SCAN_KEY_INTERVAL_MS apart, ending in Enter, is a scan (issue 14 §1).
 * Many scanners leave the factory ending codes with Tab instead: a burst ending in Tab (without
 * Shift) is a scan as well, and its Tab moves nothing (issue 27).
 *
 * Where focus is does not matter: useScanCapture listens on the window before anything else sees
 * the key. The characters reach the focused element as they come (they cannot be told from typing
 * until the Enter), and nothing they do is saved before an Enter, a Tab or leaving the cell: so at
 * the Enter of a scan the Enter is swallowed, what the burst typed is undone (an opened or typed-in
 * cell editor is cancelled, a field gets its value back), and the code goes to the lookup. Holding
 * every key back until the burst is over was the other way; it would delay and re-type every key a
 * person types, for nothing more.
 *
 * Elements marked `data-scan-target` (the search box) read scans themselves with their own
 * ScanDetector.
 */
import { type RefObject, useEffect } from 'react';
import type { StockStore } from './store.js';

/** Keys closer than this (ms, on average) come from a barcode scanner, not a person. */
export const SCAN_KEY_INTERVAL_MS = 35;
/** The shortest code taken as a scan (a count typed fast by hand is shorter). */
export const SCAN_MIN_LENGTH = 4;
/**
 * A pause this long between characters starts a new burst. Longer than any gap of a scanner, so a
 * hiccup of a busy machine inside a scan does not split it (the average still decides).
 */
export const SCAN_PAUSE_MS = 250;
/** A gap this long at the start of a burst is a person's key before the scan, not part of its code. */
export const SCAN_LEAD_GAP_MS = 2 * SCAN_KEY_INTERVAL_MS;

/** What the detector reads of a keydown. */
export interface KeyStroke {
  key: string;
  /** Milliseconds (the event's timeStamp). */
  at: number;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
}

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock']);

/** The keys a scanner ends a code with: Enter, or Tab (a common factory setting). */
export function isScanEnd(e: Pick<KeyStroke, 'key'> & { shiftKey?: boolean }): boolean {
  return e.key === 'Enter' || (e.key === 'Tab' && !e.shiftKey);
}

/**
 * Follows the keys of one place and tells the Enter that ends a scan. `S` is what the caller
 * wants to know of the moment before a character (where focus was, what a field held), taken by
 * the `begin` callback at each character: the scan's `start` is the one before its first.
 */
export class ScanDetector<S = undefined> {
  private keys: { key: string; at: number; before: S | undefined }[] = [];

  /** Feeds one keydown; the scanned code (and the moment before it) when it is the Enter of a scan. */
  key(e: KeyStroke, begin?: () => S): { code: string; start: S | undefined } | null {
    if (MODIFIERS.has(e.key)) return null;
    if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const last = this.keys.at(-1);
      if (!last || e.at - last.at > SCAN_PAUSE_MS) this.keys = [];
      this.keys.push({ key: e.key, at: e.at, before: begin?.() });
      return null;
    }
    let burst = this.keys;
    this.reset();
    if (!isScanEnd(e)) return null;
    // Keys a person typed just before the scan are not part of its code.
    while (burst.length > 1 && burst[1]!.at - burst[0]!.at >= SCAN_LEAD_GAP_MS) burst = burst.slice(1);
    if (burst.length < SCAN_MIN_LENGTH) return null;
    const last = burst[burst.length - 1]!;
    if (e.at - last.at > SCAN_PAUSE_MS) return null;
    // n characters and the Enter: n gaps.
    const average = (e.at - burst[0]!.at) / burst.length;
    if (average >= SCAN_KEY_INTERVAL_MS) return null;
    return { code: burst.map((k) => k.key).join(''), start: burst[0]!.before };
  }

  reset(): void {
    this.keys = [];
  }
}

/** A keydown as the detector reads it (timeStamp is the time the key was pressed). */
export function strokeOf(e: Pick<KeyboardEvent, 'key' | 'timeStamp' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): KeyStroke {
  return {
    key: e.key,
    at: e.timeStamp > 0 ? e.timeStamp : performance.now(),
    ctrlKey: e.ctrlKey,
    metaKey: e.metaKey,
    altKey: e.altKey,
    shiftKey: e.shiftKey,
  };
}

export type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
const TEXT_LIKE = new Set(['text', 'search', 'number', 'tel', 'email', 'url', 'password', '']);

export function fieldOf(el: Element | null): Field | null {
  if (el instanceof HTMLInputElement) return TEXT_LIKE.has(el.type) ? el : null;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el;
  return null;
}

/** Where focus was when a burst began, and what a field there held. */
export interface BurstStart {
  field: Field | null;
  value: string;
}

/**
 * Gives a React-controlled field its value back: through the element's own value setter (React
 * follows it) and the event React's onChange listens to.
 */
export function restore(field: Field, value: string): void {
  if (field.value === value) return;
  const proto =
    field instanceof HTMLInputElement
      ? HTMLInputElement.prototype
      : field instanceof HTMLTextAreaElement
        ? HTMLTextAreaElement.prototype
        : HTMLSelectElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/**
 * Scans wherever focus is on the stock screen: a grid cell, a cell editor, a dialog, the import
 * preview, a filter. The Enter of a scan never reaches the focused element (no edit is saved, no
 * button is pressed), what the burst typed is undone, and the code is looked up (store.locate):
 * with a dialog open the grid moves to the product behind it and focus stays in the dialog.
 */
export function useScanCapture(store: StockStore, root?: RefObject<Element | null>): void {
  useEffect(() => {
    const detector = new ScanDetector<BurstStart>();
    const onKeyDown = (e: KeyboardEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      // A hidden stock screen (another tab is shown) takes no scans: the frame says where they went (renderer/frame/AwayScans.tsx).
      if (target?.closest('[data-scan-target]') || root?.current?.closest('[hidden]')) {
        detector.reset();
        return;
      }
      const hit = detector.key(strokeOf(e), () => {
        const field = fieldOf(target);
        return { field, value: field?.value ?? '' };
      });
      if (!hit) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      const s = store.getState();
      // An edit the scan opened or typed into is dropped, never saved: nothing was confirmed.
      if (s.editing) s.cancelEdit();
      else if (hit.start?.field && hit.start.field.isConnected) restore(hit.start.field, hit.start.value);
      const inDialog = (target?.closest('[role="dialog"]') ?? null) !== null || s.conflict !== null || s.dialog !== null;
      void store.getState().locate(hit.code, { scan: true, focus: !inDialog });
    };
    // A click is a person at the controls: keys typed before it (a command's name in the palette) never start a scan's code.
    const onPointerDown = () => detector.reset();
    window.addEventListener('keydown', onKeyDown, true);
    window.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      window.removeEventListener('keydown', onKeyDown, true);
      window.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, [store, root]);
}
