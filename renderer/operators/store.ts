/**
 * The workstation's operators as the core reports them (issue 27): who they are and who is signed
 * in. One store per API object, shared by the frame's switch and the Settings section, so adding,
 * removing or switching in one shows in the other. The core keeps the current operator; this is a
 * copy, read again on load and whenever the open account may have changed.
 */
import { createStore } from 'zustand/vanilla';
import type { StockroomApi } from '../../common/contract/api.js';
import type { ApiError, OperatorsView, Result } from '../../common/contract/contract.js';

export interface OperatorsState {
  view: OperatorsView | null;
  load(): Promise<void>;
  add(name: string, pin: string): Promise<Result<OperatorsView>>;
  remove(id: number): Promise<Result<OperatorsView>>;
  switchTo(id: number, pin: string): Promise<Result<OperatorsView>>;
  signOut(): Promise<Result<OperatorsView>>;
  /** Follows the open account (its operators are its own); returns the function that stops. */
  start(): () => void;
}

export type OperatorsStore = ReturnType<typeof createOperatorsStore>;

function createOperatorsStore(api: StockroomApi) {
  return createStore<OperatorsState>()((set) => {
    /** A call whose answer is the new list and current operator. */
    const act = async (call: Promise<Result<OperatorsView>>) => {
      const r = await call;
      if (r.ok) set({ view: r.value });
      return r;
    };
    const load = async () => {
      const r = await api.operators.list();
      if (r.ok) set({ view: r.value });
    };
    return {
      view: null,
      load,
      add: (name, pin) => act(api.operators.add({ name, pin })),
      remove: (id) => act(api.operators.remove({ id })),
      switchTo: (id, pin) => act(api.operators.switch({ id, pin })),
      signOut: () => act(api.operators.signOut()),
      start() {
        const offs = [api.subscribe('settings.changed', () => void load()), api.subscribe('session.changed', () => void load())];
        return () => {
          for (const off of offs) off();
        };
      },
    };
  });
}

const stores = new WeakMap<StockroomApi, OperatorsStore>();

/** The one operators store of `api`. */
export function operatorsStore(api: StockroomApi): OperatorsStore {
  let s = stores.get(api);
  if (!s) stores.set(api, (s = createOperatorsStore(api)));
  return s;
}

/** Seconds to wait from a `too_many_requests` refusal's cause (`{ code: 'retry_after', seconds }`), checked, not cast. */
export function retryAfterSeconds(error: ApiError): number | null {
  for (const c of error.cause ?? []) {
    if (typeof c !== 'object' || c === null || !('code' in c) || !('seconds' in c)) continue;
    if (c.code === 'retry_after' && typeof c.seconds === 'number' && Number.isFinite(c.seconds)) return Math.max(1, Math.ceil(c.seconds));
  }
  return null;
}
