/**
 * Testing Library's `findBy…` and `waitFor` give up after 1 s by default: on a busy machine a
 * screen that is right can take longer to show, and the test then fails once in a while
 * (scan-landing did, issue 26). The wait only bounds a test that is already failing, so it is
 * generous, and set once here for every component test rather than per call.
 */
export const DOM_WAIT_MS = 15_000;

if ('document' in globalThis) {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: DOM_WAIT_MS });
}
