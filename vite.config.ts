import react from '@vitejs/plugin-react';
import { type UserConfig, defineConfig } from 'vite';

/**
 * The renderer: root renderer/, built into dist/renderer with relative asset paths (served from
 * app://stockroom in Electron and from the web server in the browser mode). No inline scripts:
 * the page's CSP allows scripts from its own origin only.
 */
const config: UserConfig = {
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
    // Above the renderer's one bundle (about 840 kB with the Radix primitives): a desktop app loads it from disk; the warning is for pages fetched over a network.
    chunkSizeWarningLimit: 900,
  },
};

export default defineConfig(({ command, mode }) => {
  // A production build is one whatever NODE_ENV the caller has: under the test runner
  // (NODE_ENV=test) the build shipped React's development build and JSX runtime, 1 MB, which
  // `npm start` then reused from dist/. Vite and the React plugin both read NODE_ENV.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return config;
});
