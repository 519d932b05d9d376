import { defineConfig } from 'vite';

/**
 * The preload: one CommonJS file (dist/preload/index.cjs) with its imports bundled in, because a
 * sandboxed preload can only require `electron` (and a few polyfilled modules).
 */
export default defineConfig({
  build: {
    outDir: 'dist/preload',
    // dist/preload also holds the compiled contract used by the main process (tsc): keep it.
    emptyOutDir: false,
    target: 'es2022',
    minify: false,
    sourcemap: false,
    lib: { entry: 'preload/index.ts', formats: ['cjs'], fileName: () => 'index.cjs' },
    rollupOptions: { external: ['electron'] },
  },
});
