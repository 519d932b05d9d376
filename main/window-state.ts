import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from './desktop/settings.js';

/** Where the window was: restored at the next start when it still fits a display. */
export interface WindowState {
  x: number;
  y: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const WINDOW_STATE_FILE = 'window-state.json';

const schema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(200).max(20_000),
  height: z.number().int().min(200).max(20_000),
  maximized: z.boolean(),
});

export function loadWindowState(file: string): WindowState | null {
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveWindowState(file: string, state: WindowState): void {
  writeFileAtomic(file, `${JSON.stringify(state)}\n`);
}

/**
 * The bounds to open the window with: the saved ones when at least a 100x50 corner of the title
 * area is on one of today's displays (a monitor may have been unplugged), clamped to that display's
 * work area; otherwise none (the window opens centred with its default size).
 */
export function restoreBounds(saved: WindowState | null, workAreas: Rect[], min = { width: 900, height: 560 }): (Rect & { maximized: boolean }) | null {
  if (!saved) return null;
  const area = workAreas.find((a) => {
    const left = Math.max(a.x, saved.x);
    const right = Math.min(a.x + a.width, saved.x + saved.width);
    const top = Math.max(a.y, saved.y);
    const bottom = Math.min(a.y + a.height, saved.y + 50);
    return right - left >= 100 && bottom - top >= 50;
  });
  if (!area) return null;
  const width = Math.max(min.width, Math.min(saved.width, area.width));
  const height = Math.max(min.height, Math.min(saved.height, area.height));
  const x = Math.min(Math.max(saved.x, area.x), area.x + area.width - width);
  const y = Math.min(Math.max(saved.y, area.y), area.y + area.height - height);
  return { x, y, width, height, maximized: saved.maximized };
}
