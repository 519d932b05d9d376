/**
 * The preload of the sandboxed window: exposes `window.stockroom` (the API built from the
 * contract's channel list, common/contract/api.ts) through contextBridge. Nothing else crosses: no
 * ipcRenderer, no Node. Bundled to one CommonJS file (vite.preload.config.ts), as a sandboxed
 * preload can require only `electron`.
 */
import { type IpcRendererEvent, contextBridge, ipcRenderer } from 'electron';
import { createApi } from '../common/contract/api.js';
import { EVENT_CHANNEL } from '../common/contract/channels.js';
import type { StockroomEvent } from '../common/contract/contract.js';

const api = createApi({
  invoke: (channel, payload) => ipcRenderer.invoke(channel, payload),
  listen(listener) {
    const handler = (_event: IpcRendererEvent, e: StockroomEvent) => listener(e);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => void ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
});

contextBridge.exposeInMainWorld('stockroom', api);

/** The type the renderer compiles against (the same as common/contract/api.ts's StockroomApi). */
export type StockroomApi = typeof api;
