import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StockroomApi } from '../../common/contract/api.js';
import type { InboxActions, InboxState, InboxStore } from './store.js';

interface InboxContextValue {
  api: StockroomApi;
  store: InboxStore;
}

export const InboxContext = createContext<InboxContextValue | null>(null);

function useInboxContext(): InboxContextValue {
  const c = useContext(InboxContext);
  if (!c) throw new Error('The inbox components need an <InboxContext.Provider>');
  return c;
}

/** A slice of the inbox store; the component re-renders when the slice changes. */
export function useInbox<T>(selector: (s: InboxState & InboxActions) => T): T {
  return useStore(useInboxContext().store, selector);
}

/** The actions (stable: they never change, so reading them does not re-render). */
export function useInboxActions(): InboxActions {
  return useInboxContext().store.getState();
}

export function useInboxApi(): StockroomApi {
  return useInboxContext().api;
}
