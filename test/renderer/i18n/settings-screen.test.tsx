// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionView, SettingsView } from '../../../common/contract/contract.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { SettingsScreen } from '../../../renderer/settings/SettingsScreen.js';
import { fail, fakeApi, ok } from '../../support/fake-api.js';
import { settingsView } from '../../support/fake-settings.js';

beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(cleanup);

const base = settingsView();
const session: SessionView = {
  mode: 'local-only',
  signedIn: true,
  via: 'demo',
  user: { id: 1780493260, nickname: 'DEPOSITO_NORTE' },
  baseUrl: null,
  applicationId: null,
  signingIn: false,
};

function setup(update: (p: Partial<SettingsView> & { accessToken?: string | null }) => ReturnType<typeof ok<SettingsView>> | ReturnType<typeof fail>) {
  let current = base;
  const fake = fakeApi({
    settings: {
      get: () => ok(current),
      update: (p) => {
        const r = update(p ?? {});
        if (r.ok) current = r.value;
        return r;
      },
    },
    session: { status: () => ok(session) },
  });
  render(<SettingsScreen api={fake.api} />);
  return fake;
}

describe('settings screen', () => {
  it('switches the language at once and saves it in the settings', async () => {
    const fake = setup((p) => ok({ ...base, ...p, hasAccessToken: false } as SettingsView));
    await screen.findByRole('group', { name: 'How the app works' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'pt-BR' } });
    expect(await screen.findByRole('heading', { name: 'Configurações' })).toBeTruthy();
    await waitFor(() => expect(fake.callsTo('settings.update')).toEqual([{ language: 'pt-BR' }]));
    expect(useI18nStore.getState().language).toBe('pt-BR');
  });

  it('checks the fields before saving, then sends the marketplace address, ids, mode and token', async () => {
    const fake = setup((p) =>
      ok({
        ...base,
        mode: p.mode ?? base.mode,
        baseUrl: p.baseUrl ?? null,
        applicationId: p.applicationId ?? null,
        userId: p.userId ?? null,
        hasAccessToken: typeof p.accessToken === 'string',
      }),
    );
    await screen.findByRole('group', { name: 'How the app works' });
    expect(screen.getByText('Signed in as DEPOSITO_NORTE (demo)')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /Offline/ }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Marketplace address' }), { target: { value: 'ftp://nope' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Application id' }), { target: { value: '12x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByRole('alert').textContent).toContain('Check the highlighted fields.');
    expect(screen.getByText('Enter an address that starts with https:// or http://')).toBeTruthy();
    expect(screen.getByText('Enter a whole number greater than 0.')).toBeTruthy();
    expect(fake.callsTo('settings.update')).toHaveLength(0);

    fireEvent.change(screen.getByRole('textbox', { name: 'Marketplace address' }), { target: { value: 'http://127.0.0.1:4000' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Application id' }), { target: { value: '5503910054141466' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Your user id' }), { target: { value: '1780493260' } });
    fireEvent.change(screen.getByLabelText('Access token'), { target: { value: 'APP_USR-abc-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect((await screen.findByRole('status')).textContent).toContain('Settings saved.');
    expect(fake.callsTo('settings.update')).toEqual([
      { mode: 'offline', baseUrl: 'http://127.0.0.1:4000', applicationId: 5503910054141466, userId: 1780493260, accessToken: 'APP_USR-abc-123' },
    ]);
    expect(screen.getByText('A token is stored.')).toBeTruthy();
  });

  it('shows the core’s refusal in words', async () => {
    setup(() => fail('not_configured', 'Set the marketplace address (base_url) in Settings first', 409));
    await screen.findByRole('group', { name: 'How the app works' });
    fireEvent.click(screen.getByRole('radio', { name: /Online/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Set the marketplace address (base_url) in Settings first');
  });

  it('shows the core’s refusal in Spanish, the core’s English message kept as its tooltip', async () => {
    act(() => useI18nStore.getState().setLanguage('es'));
    setup(() => fail('not_configured', 'Set the marketplace address (base_url) in Settings first', 409));
    await screen.findByRole('group', { name: 'Cómo trabaja la app' });
    fireEvent.click(screen.getByRole('radio', { name: /En línea/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar la configuración' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Algo salió mal: El marketplace todavía no está configurado: completalo en Configuración.');
    expect(alert.textContent).not.toContain('Set the marketplace address');
    expect(alert.getAttribute('title')).toBe('Set the marketplace address (base_url) in Settings first');
  });

  it('a theme is chosen at the click, before the save answers; a refused save puts the previous one back', async () => {
    setup((p) => (p.theme === 'dark' ? ok({ ...base, ...p, hasAccessToken: false } as SettingsView) : fail('internal_error', 'The disk is full', 500)));
    await screen.findByRole('group', { name: 'How the app works' });
    const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name });
    expect(radio('Same as the system').checked).toBe(true);
    fireEvent.click(radio('Dark'));
    // Checked in the same turn as the click: the save's answer has not come yet.
    expect(radio('Dark').checked).toBe(true);
    expect(document.documentElement.dataset.theme).toBe('dark');
    await waitFor(() => expect(radio('Dark').checked).toBe(true));
    fireEvent.click(radio('Light'));
    expect(radio('Light').checked).toBe(true);
    await waitFor(() => expect(radio('Dark').checked).toBe(true));
    expect(document.documentElement.dataset.theme).toBe('dark');
  });
});
