/**
 * The module resolve hook (registered by register.ts): the bare specifier `electron` resolves to
 * the stand-in, every other specifier as Node resolves it. ESM `import` only: a CommonJS
 * `require('electron')` (electron-updater's, made only when updates are on) is not mapped.
 */
import type { ResolveHook } from 'node:module';

const STAND_IN = new URL('./electron.js', import.meta.url).href;

export const resolve: ResolveHook = (specifier, context, next) =>
  specifier === 'electron' ? { url: STAND_IN, format: 'module', shortCircuit: true } : next(specifier, context);
