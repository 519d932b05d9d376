/**
 * `node --import <built register.js> dist/main/app.js`: maps `electron` to the stand-in before the
 * app's first import (test/support/electron-stand-in/hooks.ts).
 */
import { register } from 'node:module';

register('./hooks.js', import.meta.url);
