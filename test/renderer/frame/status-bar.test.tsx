// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusBar } from '../../../renderer/frame/StatusBar.js';
import { i18nFor } from '../../../renderer/i18n/index.js';
import { syncStatus } from '../../support/sync-status.js';

afterEach(cleanup);

/** 10:32 on the machine's own clock (the status bar shows local time). */
const at1032 = new Date(2026, 10, 27, 10, 32).getTime();
const connection = () => document.querySelector('.connection')?.textContent ?? '';

describe('the status bar says the truth about the connection (issue 27)', () => {
  it('unreachable: since when, and that the changes are safe here; nothing claims to be sending', () => {
    const status = syncStatus({ online: false, unreachableSince: at1032, pending: 1, progress: { done: 0, total: 1 } });
    render(<StatusBar status={status} i18n={i18nFor('en')} />);
    expect(connection()).toContain('Can’t reach the marketplace since 10:32 — your changes are safe here');
    expect(screen.getByText('1 pending')).toBeTruthy();
    expect(screen.queryByText(/sending/)).toBeNull();
    expect(document.querySelector('.connection')?.getAttribute('data-online')).toBe('false');
  });

  it('in Spanish and Brazilian Portuguese, with the same time', () => {
    const status = syncStatus({ online: false, unreachableSince: at1032, pending: 1 });
    render(<StatusBar status={status} i18n={i18nFor('es')} />);
    expect(connection()).toContain('No se puede conectar con el marketplace desde las 10:32 — tus cambios están a salvo acá');
    cleanup();
    render(<StatusBar status={status} i18n={i18nFor('pt-BR')} />);
    expect(connection()).toContain('Não é possível acessar o marketplace desde as 10:32 — suas alterações estão seguras aqui');
  });

  it('online, sending: says so and shows the progress; the other states keep their words', () => {
    render(<StatusBar status={syncStatus({ pending: 1, progress: { done: 0, total: 1 } })} i18n={i18nFor('en')} />);
    expect(connection()).toMatch(/^● Online/);
    expect(screen.getByText(/sending 0\/1/)).toBeTruthy();
    cleanup();
    render(<StatusBar status={syncStatus({ mode: 'offline', online: false })} i18n={i18nFor('en')} />);
    expect(connection()).toMatch(/^○ Working offline/);
    cleanup();
    // Not reachable before anything said since when (the engine has not looked yet): plain Offline.
    render(<StatusBar status={syncStatus({ online: false })} i18n={i18nFor('en')} />);
    expect(connection()).toMatch(/^○ Offline/);
  });
});
