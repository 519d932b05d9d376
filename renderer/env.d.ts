import type { StockroomApi } from '../common/contract/api.js';

declare global {
  interface Window {
    /** Set by the preload in the desktop app; absent in a plain browser (the bridge is used then). */
    stockroom?: StockroomApi;
  }
}
export {};
