/**
 * The settings of a person who chose the local demo data, in English: what `settings.get` answers
 * in the screens' component tests (test/support/fake-api.ts), with `over` on top.
 *
 * No Node or DOM types here: the renderer's component tests compile this file too.
 */
import type { SettingsView } from '../../common/contract/contract.js';

export function settingsView(over: Partial<SettingsView> = {}): SettingsView {
  return {
    mode: 'local-only',
    baseUrl: null,
    applicationId: null,
    userId: null,
    language: 'en',
    hasAccessToken: false,
    dataDir: '/tmp/stockroom',
    ...over,
  };
}
