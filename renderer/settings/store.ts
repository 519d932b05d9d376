/**
 * The settings screen's state: the settings and the session as the core reports them (kept fresh
 * by the `settings.changed` and `session.changed` events), and the result of the last save or
 * sign-in action.
 */
import { createStore } from 'zustand/vanilla';
import type { StockroomApi } from '../../common/contract/api.js';
import type { ApiError, InputOf, Language, SessionView, SettingsView, Theme } from '../../common/contract/contract.js';
import { applyTheme } from '../theme/theme.js';

export type SettingsPatch = NonNullable<InputOf<'settings', 'update'>>;

export interface SettingsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  settings: SettingsView | null;
  session: SessionView | null;
  error: ApiError | null;
  saving: boolean;
  result: { kind: 'saved' } | { kind: 'error'; error: ApiError } | null;
}

export interface SettingsActions {
  load(): Promise<void>;
  save(patch: SettingsPatch): Promise<boolean>;
  setLanguage(language: Language): Promise<void>;
  setTheme(theme: Theme): Promise<void>;
  signIn(): Promise<void>;
  cancelSignIn(): Promise<void>;
  signOut(): Promise<void>;
  start(): () => void;
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;

export function createSettingsStore(api: StockroomApi) {
  return createStore<SettingsState & SettingsActions>()((set, get) => {
    const act = async (call: () => ReturnType<StockroomApi['session']['status']>) => {
      set({ result: null });
      const r = await call();
      if (r.ok) set({ session: r.value });
      else set({ result: { kind: 'error', error: r.error } });
    };
    return {
      status: 'idle',
      settings: null,
      session: null,
      error: null,
      saving: false,
      result: null,

      async load() {
        set((s) => ({ status: s.settings ? s.status : 'loading', error: null }));
        const [settings, session] = await Promise.all([api.settings.get(), api.session.status()]);
        if (!settings.ok) set({ status: 'error', error: settings.error });
        else set({ status: 'ready', settings: settings.value, session: session.ok ? session.value : null, error: null });
      },

      async save(patch) {
        set({ saving: true, result: null });
        const r = await api.settings.update(patch);
        if (r.ok) {
          set({ saving: false, settings: r.value, result: { kind: 'saved' } });
          const session = await api.session.status();
          if (session.ok) set({ session: session.value });
          return true;
        }
        set({ saving: false, result: { kind: 'error', error: r.error } });
        return false;
      },

      async setLanguage(language) {
        if (get().settings?.language === language) return;
        const r = await api.settings.update({ language });
        if (r.ok) set({ settings: r.value });
        else set({ result: { kind: 'error', error: r.error } });
      },

      async setTheme(theme) {
        const before = get().settings;
        const previous = before?.theme ?? 'system';
        if (!before || previous === theme) return;
        // Chosen at once (the radio and the page's colours follow the click, not the save's answer);
        // a refused save puts the previous choice back.
        set({ settings: { ...before, theme } });
        const r = await api.settings.update({ theme });
        if (r.ok) set({ settings: r.value });
        else {
          const now = get().settings;
          if (now?.theme === theme) {
            set({ settings: { ...now, theme: previous } });
            applyTheme(previous);
          }
          set({ result: { kind: 'error', error: r.error } });
        }
      },

      signIn: () => act(() => api.session.signIn()),
      cancelSignIn: () => act(() => api.session.cancelSignIn()),
      signOut: () => act(() => api.session.signOut()),

      start() {
        const offs = [
          api.subscribe('settings.changed', (e) => set({ settings: e.settings, status: 'ready' })),
          api.subscribe('session.changed', (e) => set({ session: e.session })),
        ];
        return () => {
          for (const off of offs) off();
        };
      },
    };
  });
}
