// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusBar } from '../../../renderer/frame/StatusBar.js';
import { i18nFor } from '../../../renderer/i18n/index.js';
import { syncStatus } from '../../support/sync-status.js';

afterEach(cleanup);

const progress = () => document.querySelector('.stock-read')?.textContent ?? '';

describe('the status bar during a first pull’s stock reads (issue 29)', () => {
  it('says how many products have stock read and the time left at the current rate, in each language', () => {
    // 87,655 left at 100 a minute: 876.55 minutes, said as about 14 h 37 min.
    const stockRead = { read: 12_345, total: 100_000, perMinute: 100, leftMs: Math.round((87_655 / 100) * 60_000) };
    render(<StatusBar status={syncStatus({ stockRead })} i18n={i18nFor('en')} />);
    expect(progress()).toContain('Stock read for 12,345 of 100,000 products · about 14 h 37 min left at 100 requests/min');
    expect(document.querySelector('.stock-read progress')?.getAttribute('value')).toBe('12345');
    cleanup();
    render(<StatusBar status={syncStatus({ stockRead })} i18n={i18nFor('es')} />);
    expect(progress()).toContain('Stock leído de 12.345 de 100.000 productos · faltan unas 14 h 37 min a 100 solicitudes/min');
    cleanup();
    render(<StatusBar status={syncStatus({ stockRead })} i18n={i18nFor('pt-BR')} />);
    expect(progress()).toContain('Estoque lido de 12.345 de 100.000 produtos · faltam cerca de 14 h 37 min a 100 solicitações/min');
  });

  it('under an hour in minutes; before a rate is known it says so; nothing once every product is read', () => {
    render(<StatusBar status={syncStatus({ stockRead: { read: 900, total: 1000, perMinute: 100, leftMs: 60_000 } })} i18n={i18nFor('en')} />);
    expect(progress()).toContain('about 1 min left at 100 requests/min');
    cleanup();
    render(<StatusBar status={syncStatus({ stockRead: { read: 0, total: 1000, perMinute: null, leftMs: null } })} i18n={i18nFor('en')} />);
    expect(progress()).toContain('Stock read for 0 of 1,000 products · time left known after a minute of reading');
    cleanup();
    render(<StatusBar status={syncStatus({})} i18n={i18nFor('en')} />);
    expect(document.querySelector('.stock-read')).toBeNull();
  });
});
