import { describe, expect, it } from 'vitest';
import { type BrowserProbe, browserCandidates, browserPlan, findBrowser, requireBrowser } from '../../scripts/browser.js';

/** A machine where exactly `files` exist. */
const machine = (platform: string, files: string[], env: BrowserProbe['env'] = {}): BrowserProbe => {
  const set = new Set(files);
  return { platform, env, exists: (p) => set.has(p) };
};
const DEBIAN = ['/etc/debian_version', '/usr/bin/apt-get'];
const never = () => {
  throw new Error('canInstall must not be asked');
};

describe('finding the browser of the browser tests (scripts/browser.ts)', () => {
  it('Linux: Debian chromium first, then chromium-browser, google-chrome', () => {
    expect(findBrowser(machine('linux', ['/usr/bin/chromium', '/usr/bin/google-chrome']))).toEqual({ path: '/usr/bin/chromium', from: 'system' });
    expect(findBrowser(machine('linux', ['/usr/bin/chromium-browser', '/usr/bin/google-chrome'])).path).toBe('/usr/bin/chromium-browser');
    expect(findBrowser(machine('linux', ['/usr/bin/google-chrome'])).path).toBe('/usr/bin/google-chrome');
    const none = findBrowser(machine('linux', []));
    expect(none).toMatchObject({ path: null, fromEnv: false });
    expect(none.path === null && none.tried.slice(0, 3)).toEqual(['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']);
  });

  it('STOCKROOM_CHROMIUM wins when set, and is the only one tried: a wrong one is never replaced by another browser', () => {
    expect(findBrowser(machine('linux', ['/opt/chrome/chrome', '/usr/bin/chromium'], { STOCKROOM_CHROMIUM: '/opt/chrome/chrome' }))).toEqual({
      path: '/opt/chrome/chrome',
      from: 'env',
    });
    expect(findBrowser(machine('linux', ['/usr/bin/chromium'], { STOCKROOM_CHROMIUM: '/opt/nope' }))).toEqual({
      path: null,
      tried: ['/opt/nope'],
      fromEnv: true,
    });
    // Empty is unset.
    expect(findBrowser(machine('linux', ['/usr/bin/chromium'], { STOCKROOM_CHROMIUM: '' })).path).toBe('/usr/bin/chromium');
  });

  it('macOS: Chrome, Chromium or Edge in /Applications or ~/Applications', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    const chromium = '/Users/ana/Applications/Chromium.app/Contents/MacOS/Chromium';
    const edge = '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge';
    expect(findBrowser(machine('darwin', [edge, chrome])).path).toBe(chrome);
    expect(findBrowser(machine('darwin', [edge, chromium], { HOME: '/Users/ana' })).path).toBe(chromium);
    expect(findBrowser(machine('darwin', [edge])).path).toBe(edge);
    expect(findBrowser(machine('darwin', ['/usr/bin/chromium'])).path).toBeNull();
  });

  it('Windows: Chrome or Edge under Program Files (either), or Chrome per user, environment names in any case', () => {
    const env = { ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'D:\\Apps (x86)', LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' };
    expect(findBrowser(machine('win32', ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'], env)).path).toBe(
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    );
    expect(findBrowser(machine('win32', ['D:\\Apps (x86)\\Microsoft\\Edge\\Application\\msedge.exe'], env)).path).toBe(
      'D:\\Apps (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
    );
    expect(findBrowser(machine('win32', ['C:\\Users\\ana\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe'], env)).path).toBe(
      'C:\\Users\\ana\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
    );
    // Without the variables: the default folders.
    expect(browserCandidates('win32', {})).toContain('C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe');
    expect(findBrowser(machine('win32', ['C:\\chrome.exe'], { stockroom_chromium: 'C:\\chrome.exe' })).path).toBe('C:\\chrome.exe');
  });

  it('plans: use what is there (never asking to install), install on Debian when allowed, else one line of what to install', () => {
    expect(browserPlan({ ...machine('linux', [...DEBIAN, '/usr/bin/chromium']), canInstall: never })).toEqual({ action: 'use', path: '/usr/bin/chromium' });
    expect(browserPlan({ ...machine('linux', DEBIAN), canInstall: () => true })).toEqual({ action: 'install' });

    const lines = {
      debian: browserPlan({ ...machine('linux', DEBIAN), canInstall: () => false }),
      otherLinux: browserPlan({ ...machine('linux', []), canInstall: never }),
      mac: browserPlan({ ...machine('darwin', []), canInstall: never }),
      windows: browserPlan({ ...machine('win32', []), canInstall: never }),
      wrongEnv: browserPlan({ ...machine('linux', [...DEBIAN, '/usr/bin/chromium'], { STOCKROOM_CHROMIUM: '/opt/nope' }), canInstall: never }),
    };
    for (const plan of Object.values(lines)) {
      expect(plan.action).toBe('fail');
      if (plan.action === 'fail') expect(plan.message).not.toContain('\n');
    }
    const message = (p: (typeof lines)[keyof typeof lines]) => (p.action === 'fail' ? p.message : '');
    expect(message(lines.debian)).toContain('sudo apt-get install -y chromium');
    expect(message(lines.debian)).toContain('/usr/bin/chromium');
    expect(message(lines.otherLinux)).toContain('with your package manager');
    expect(message(lines.mac)).toContain('install Google Chrome');
    expect(message(lines.windows)).toContain('install Google Chrome or Microsoft Edge');
    expect(message(lines.wrongEnv)).toBe(
      'Browser tests: STOCKROOM_CHROMIUM=/opt/nope does not exist; point it at a Chrome, Chromium or Edge executable, or unset it.',
    );
    for (const p of Object.values(lines)) expect(message(p)).toContain('STOCKROOM_CHROMIUM');
  });

  it('requireBrowser gives the path, or throws that one line', () => {
    expect(requireBrowser(machine('linux', ['/usr/bin/google-chrome']))).toBe('/usr/bin/google-chrome');
    expect(() => requireBrowser(machine('darwin', []))).toThrow(
      /^Browser tests need Chromium, Chrome or Edge, and none was found \(looked in \/Applications\/Google Chrome\.app/,
    );
  });
});
