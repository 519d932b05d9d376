import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The renderer: root renderer/, built into dist/renderer with relative asset paths (served from
 * app://stockroom in Electron and from the web server in the browser mode). No inline scripts:
 * the page's CSP allows scripts from its own origin only.
 */
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // Just above the renderer's one bundle (about 750 kB): a desktop app loads it from disk; the warning is for pages fetched over a network.
    chunkSizeWarningLimit: 800,
  },
});
