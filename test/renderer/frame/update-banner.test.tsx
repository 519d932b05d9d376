// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UpdateView } from '../../../common/contract/contract.js';
import { UpdateBanner } from '../../../renderer/frame/UpdateBanner.js';
import { i18nFor, useI18nStore } from '../../../renderer/i18n/index.js';
import { fakeApi, ok } from '../../support/fake-api.js';

beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(cleanup);

const show = (update: UpdateView, api = fakeApi({ updates: { status: () => ok(update) } })) => {
  render(<UpdateBanner api={api.api} i18n={i18nFor('en')} />);
  return api;
};

describe('the update banner', () => {
  it('says nothing while idle, off, checking, or after a failed background check', async () => {
    for (const update of [
      { state: 'off' },
      { state: 'idle', lastCheckAt: null },
      { state: 'checking' },
      { state: 'error', message: 'getaddrinfo ENOTFOUND', during: 'check', lastCheckAt: 1 },
    ] as UpdateView[]) {
      const f = show(update);
      await waitFor(() => expect(f.callsTo('updates.status')).toHaveLength(1));
      expect(document.querySelector('.update-banner')).toBeNull();
      cleanup();
    }
  });

  it('shows the download progress, then "Restart to update", then how many changes it waits for', async () => {
    const f = show({ state: 'downloading', version: '1.1.0', percent: 42, transferred: 420, total: 1000 });
    expect(await screen.findByText(/Downloading version 1\.1\.0… 42\s?%/)).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('value')).toBe('42');

    act(() => f.emit({ type: 'update.state', update: { state: 'ready', version: '1.1.0', restartRequested: false, waitingFor: 0 } }));
    expect(screen.getByText(/Version 1\.1\.0 is ready/)).toBeTruthy();
    f.on({ updates: { install: () => ok({ state: 'ready', version: '1.1.0', restartRequested: true, waitingFor: 2 }) } });
    fireEvent.click(screen.getByRole('button', { name: 'Restart to update' }));
    expect(await screen.findByText('Waiting for changes to finish sending (2)…')).toBeTruthy();
    expect(f.callsTo('updates.install')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Restart to update' })).toBeNull();

    act(() => f.emit({ type: 'update.state', update: { state: 'installing', version: '1.1.0' } }));
    expect(screen.getByText('Restarting to install version 1.1.0…')).toBeTruthy();
  });

  it('shows a failed download', async () => {
    show({ state: 'error', message: 'sha512 checksum mismatch', during: 'download', lastCheckAt: 1 });
    expect((await screen.findByRole('alert')).textContent).toBe('The update failed: sha512 checksum mismatch');
  });

  it('speaks the app language', async () => {
    act(() => useI18nStore.getState().setLanguage('es'));
    const api = fakeApi({ updates: { status: () => ok({ state: 'ready', version: '1.1.0', restartRequested: false, waitingFor: 0 }) } });
    render(<UpdateBanner api={api.api} i18n={i18nFor('es')} />);
    expect(await screen.findByRole('button', { name: 'Reiniciar para actualizar' })).toBeTruthy();
  });
});
