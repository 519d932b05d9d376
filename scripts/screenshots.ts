/**
 * `npm run screenshots`: each main screen in both themes, for a reviewer to look at (issue 28).
 * Writes docs/screenshots/<screen>-<theme>.png at 1440×900 from the real app in headless Chromium
 * on the demo data (the e2e tier's harness: test/e2e/support/browser.ts), the theme following the
 * emulated system setting.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, launchChromium, startBrowserApp } from '../test/e2e/support/browser.js';
import { FRAME_SCREENS, SCHEMES, SIZES, openScreen, useScheme } from '../test/e2e/support/screens.js';

const OUT = join(ROOT, 'docs', 'screenshots');

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  // The demo brands' logos are on example.com; trusting it as a link host does not change the CSP.
  process.env.STOCKROOM_LINK_HOSTS = 'example.com';
  const browser = await launchChromium();
  const viewport = SIZES[0];
  try {
    const frame = await startBrowserApp({ browser, viewport });
    try {
      for (const screen of FRAME_SCREENS) {
        await openScreen(frame.page, screen);
        for (const scheme of SCHEMES) {
          await useScheme(frame.page, scheme);
          const file = join(OUT, `${screen}-${scheme}.png`);
          await frame.page.screenshot({ path: file });
          console.log(`wrote ${file}`);
        }
      }
    } finally {
      await frame.close();
    }
    const welcome = await startBrowserApp({ browser, viewport, core: { welcome: true }, waitForFrame: false });
    try {
      await welcome.page.getByRole('heading', { name: 'Stockroom', level: 1 }).waitFor();
      for (const scheme of SCHEMES) {
        await useScheme(welcome.page, scheme);
        const file = join(OUT, `welcome-${scheme}.png`);
        await welcome.page.screenshot({ path: file });
        console.log(`wrote ${file}`);
      }
    } finally {
      await welcome.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
