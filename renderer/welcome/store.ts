/**
 * The welcome and the connect flow's state: whether the welcome (or the connect flow, opened later
 * from the frame or Settings) shows, the step the connection is at, and the first pull's progress
 * (`sync.pull` events). Every step is a call of the existing API: settings, then the sign-in
 * through the system browser, then online and the first pull.
 */
import { create } from 'zustand';
import type { StockroomApi } from '../../common/contract/api.js';
import type { ApiError, PullProgressView, SettingsView } from '../../common/contract/contract.js';

export interface ConnectForm {
  siteId: string;
  baseUrl: string;
  applicationId: number;
  keepSignedIn: boolean;
  /** Advanced: a pasted access token and its user id instead of the browser sign-in. */
  pasted: { token: string; userId: number } | null;
}

export type ConnectStep =
  | { step: 'choose' }
  | { step: 'form' }
  | { step: 'signing-in' }
  | { step: 'pulling'; progress: PullProgressView | null }
  | { step: 'error'; error: ApiError; during: 'sign-in' | 'pull' | 'settings' };

interface WelcomeState {
  /** The welcome shows: a first run, or the person asked to connect an account from the app. */
  open: boolean;
  /** Opened from the app (not a first run): the flow can be closed to go back. */
  fromApp: boolean;
  state: ConnectStep;
  /** The settings as last read (first run, site, keep signed in, protection). */
  settings: SettingsView | null;
  /** How many accounts were connected from the app: the frame then shows the new account's stock (issue 27). */
  connected: number;
  load(api: StockroomApi): Promise<void>;
  /** Opens the connect flow from the frame or Settings. */
  openConnect(): void;
  close(): void;
  showForm(): void;
  back(): void;
  chooseDemo(api: StockroomApi): Promise<void>;
  connect(api: StockroomApi, form: ConnectForm): Promise<void>;
  cancel(api: StockroomApi): Promise<void>;
  /** Listens to the settings and the pull's progress; returns the function that stops. */
  start(api: StockroomApi): () => void;
}

export const useWelcome = create<WelcomeState>()((set, get) => {
  const fail = (error: ApiError, during: 'sign-in' | 'pull' | 'settings') => set({ state: { step: 'error', error, during } });
  return {
    open: false,
    fromApp: false,
    state: { step: 'choose' },
    settings: null,
    connected: 0,

    async load(api) {
      const r = await api.settings.get();
      // Settings that cannot be read: the app opens as before (its screens say what failed).
      if (!r.ok) return set({ open: false });
      set({ settings: r.value, open: r.value.firstRun === true, fromApp: false });
    },

    openConnect: () => set({ open: true, fromApp: true, state: { step: 'form' } }),
    close: () => set({ open: false, fromApp: false, state: { step: 'choose' } }),
    showForm: () => set({ state: { step: 'form' } }),
    back: () => set((s) => ({ state: { step: s.fromApp ? 'form' : 'choose' } })),

    async chooseDemo(api) {
      const r = await api.settings.update({ start: 'demo', mode: 'local-only' });
      if (!r.ok) return fail(r.error, 'settings');
      set({ open: false, settings: r.value, state: { step: 'choose' } });
    },

    async connect(api, form) {
      const base = { baseUrl: form.baseUrl, applicationId: form.applicationId, siteId: form.siteId };
      if (form.pasted) {
        // A pasted token names no user: the person gave the user id with it.
        set({ state: { step: 'pulling', progress: null } });
        const r = await api.settings.update({
          ...base,
          keepSignedIn: form.keepSignedIn,
          userId: form.pasted.userId,
          accessToken: form.pasted.token,
          mode: 'online',
          start: 'account',
        });
        if (!r.ok) return fail(r.error, 'settings');
      } else {
        // Staying signed in is this computer's choice, not the account's: it applies before the sign-in
        // saves the new session. The address, application and site become the settings only once
        // signed in, so the open account stays open meanwhile (issue 27).
        if (form.keepSignedIn !== get().settings?.keepSignedIn) {
          const r = await api.settings.update({ keepSignedIn: form.keepSignedIn });
          if (!r.ok) return fail(r.error, 'settings');
        }
        set({ state: { step: 'signing-in' } });
        const signed = await api.session.signIn(base);
        // Cancelled by the person: back to the form, not an error.
        if (!signed.ok && signed.error.code === 'sign_in_aborted') return get().back();
        if (!signed.ok) return fail(signed.error, 'sign-in');
        set({ state: { step: 'pulling', progress: null } });
        const online = await api.settings.update({ mode: 'online', start: 'account' });
        if (!online.ok) return fail(online.error, 'settings');
      }
      // Joins the pull the engine started on going online (or starts it); the stock of a first pull
      // is read behind it, with the grid already open (the status bar counts what is read).
      const pulled = await api.sync.pullNow({ stock: 'background' });
      if (!pulled.ok) return fail(pulled.error, 'pull');
      const settings = await api.settings.get();
      set((s) => ({
        open: false,
        fromApp: false,
        state: { step: 'choose' },
        connected: s.connected + (s.fromApp ? 1 : 0),
        ...(settings.ok ? { settings: settings.value } : {}),
      }));
    },

    async cancel(api) {
      // The sign-in's own answer (sign_in_aborted) brings the form back.
      await api.session.cancelSignIn();
    },

    start(api) {
      const offs = [
        api.subscribe('settings.changed', (e) => set({ settings: e.settings })),
        api.subscribe('sync.pull', (e) => {
          if (get().state.step === 'pulling') set({ state: { step: 'pulling', progress: e.progress } });
        }),
      ];
      return () => {
        for (const off of offs) off();
      };
    },
  };
});
