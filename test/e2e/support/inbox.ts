/**
 * Inbox helpers for the end-to-end tests: files dropped the way a person drops them (a DataTransfer
 * built in the page, then dragenter / dragover / drop on the target).
 */
import type { Locator, Page } from 'playwright-core';

export interface DropFile {
  name: string;
  type: string;
  /** The bytes, base64. */
  base64: string;
}

/** A 1×1 PNG. */
export const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export async function dropFiles(page: Page, target: Locator, files: DropFile[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list: DropFile[]) => {
    // Runs in the page (DOM types are not in this Node project's lib).
    const page = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: unknown): void } };
      File: new (parts: Uint8Array[], name: string, options: { type: string }) => unknown;
      atob(s: string): string;
    };
    const dt = new page.DataTransfer();
    for (const f of list) {
      const bin = page.atob(f.base64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new page.File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, files);
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
  await dataTransfer.dispose();
}

export const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
