/** The Count area's store as the components reach it: the one given by a provider (tests), else the window's for the stock API. */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import { useStock } from '../store.js';
import { type CountState, type CountStore, countStoreFor } from './store.js';

export const CountStoreContext = createContext<CountStore | null>(null);

export function useCountStore(): CountStore {
  const given = useContext(CountStoreContext);
  const api = useStock((s) => s.api);
  return given ?? countStoreFor(api);
}

export function useCount<T>(selector: (s: CountState) => T): T {
  return useStore(useCountStore(), selector);
}
