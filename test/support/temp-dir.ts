import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

/**
 * Temporary folders for one test file, each removed after its test (`'each'`) or after the file
 * (`'all'`, for folders a `beforeAll` makes or a child may still be writing to). Call it at the
 * top of a test file or a `describe`: it registers the removal hook there. Nine test files wrote
 * this same mkdtempSync + list + rmSync loop; they now say only what prefix their folders get.
 *
 * After hooks run in reverse order of registration (Vitest's `sequence.hooks: 'stack'`), so a
 * file that calls this before its own after hooks has its folders removed after those hooks
 * stopped whatever was using them.
 */
export function tempDirs(defaultPrefix: string, removeAfter: 'each' | 'all' = 'each'): (prefix?: string) => string {
  const made: string[] = [];
  (removeAfter === 'each' ? afterEach : afterAll)(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return (prefix = defaultPrefix) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    made.push(d);
    return d;
  };
}
