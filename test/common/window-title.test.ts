import { describe, expect, it } from 'vitest';
import type { SessionView } from '../../common/views.js';
import { type TitleWords, windowTitle } from '../../common/window-title.js';

const remote = (over: Partial<SessionView> = {}): SessionView => ({
  mode: 'online',
  signedIn: true,
  via: 'oauth',
  user: { id: 210000001, nickname: 'ACME_STORE' },
  baseUrl: 'https://api.marketplace.example',
  applicationId: 4242,
  signingIn: false,
  ...over,
});

describe('the window title names the app and whose data is open', () => {
  it('is the app alone before the session is known', () => {
    expect(windowTitle(null)).toBe('Stockroom');
  });

  it('says when the data is the demo', () => {
    expect(windowTitle({ ...remote(), mode: 'local-only', via: 'demo', baseUrl: null })).toBe('Stockroom — Demo data');
  });

  it('names the connected account and its marketplace', () => {
    expect(windowTitle(remote())).toBe('Stockroom — ACME_STORE on api.marketplace.example');
  });

  it('falls back to the seller id when the nickname is not known yet', () => {
    expect(windowTitle(remote({ user: { id: 7, nickname: null } }))).toBe('Stockroom — seller 7 on api.marketplace.example');
  });

  it('says offline and signed out, so an edit made then is not mistaken for a sent one', () => {
    expect(windowTitle(remote({ mode: 'offline' }))).toBe('Stockroom — ACME_STORE on api.marketplace.example (offline)');
    expect(windowTitle(remote({ signedIn: false }))).toBe('Stockroom — ACME_STORE on api.marketplace.example (signed out)');
  });

  it('survives an address it cannot parse', () => {
    expect(windowTitle(remote({ baseUrl: 'not a url' }))).toBe('Stockroom — ACME_STORE');
  });

  it("speaks the app's language when given its words (issue 27)", () => {
    const es: TitleWords = {
      demo: 'Datos de demostración',
      seller: (id) => `vendedor ${id}`,
      on: (who, host) => `${who} en ${host}`,
      signedOut: 'sesión cerrada',
      offline: 'sin conexión',
    };
    expect(windowTitle({ ...remote(), mode: 'local-only', via: 'demo', baseUrl: null }, es)).toBe('Stockroom — Datos de demostración');
    expect(windowTitle(remote({ mode: 'offline' }), es)).toBe('Stockroom — ACME_STORE en api.marketplace.example (sin conexión)');
    expect(windowTitle(remote({ user: { id: 7, nickname: null }, signedIn: false }), es)).toBe(
      'Stockroom — vendedor 7 en api.marketplace.example (sesión cerrada)',
    );
  });
});
