/**
 * Chromium features the desktop app turns off, as pure values (main/app.ts applies them before
 * `ready`; the e2e tests and `npm run bench ui` launch their stand-in Chromium with the same, so
 * they measure the renderer the app runs).
 *
 * - DeferRendererTasksAfterInput: after a key press that asks for a frame, Chromium holds the
 *   page's deferrable tasks (network answers, posted messages, IPC replies) until that frame is
 *   drawn, to paint the key's own change sooner. A scanner's Enter is exactly the key whose answer
 *   must land at once: with the deferral a scan's answer, ready in 5 ms, waited for the next
 *   frame after the key's release, up to 16.7 ms more (issue 29: scan → cell focused p50 21 →
 *   12 ms, p95 27 → 19 ms in `npm run bench ui`, both measured in one run).
 */
export const DISABLED_CHROMIUM_FEATURES: readonly string[] = ['DeferRendererTasksAfterInput'];

/** The command-line switch of `DISABLED_CHROMIUM_FEATURES` for a Chromium launched by hand (tests, bench). */
export const disabledFeaturesSwitch = (): string => `--disable-features=${DISABLED_CHROMIUM_FEATURES.join(',')}`;
