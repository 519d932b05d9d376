/**
 * The one way a test waits: for a condition, never for a length of time. `waitFor` polls `probe`
 * every few milliseconds until it gives a value (anything but `undefined`, `null` or `false`),
 * and resolves with that value; after `timeoutMs` it fails with `timed out waiting for <what>`
 * and the last value the probe gave (or the error it threw), so a failure says where things
 * stood. The timeout is generous on purpose: it only bounds a test that is already failing.
 *
 * No Node or DOM types here: the renderer's component tests compile this file too.
 */

/** What a probe gives while the condition does not hold yet. */
export type NotYet = undefined | null | false;

export async function waitFor<T>(probe: () => T | NotYet | Promise<T | NotYet>, what: string, timeoutMs = 20_000, everyMs = 5): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== null && v !== false) return v;
      last = v;
    } catch (e) {
      // A probe may throw while the thing it reads is not there yet; the last error is reported.
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (after ${timeoutMs} ms; last seen: ${describe(last)})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function describe(v: unknown): string {
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  if (typeof v === 'string') return JSON.stringify(v);
  try {
    const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));
    return (text ?? String(v)).slice(0, 500);
  } catch {
    return String(v);
  }
}
