// The design tokens first: every stylesheet after it uses them (renderer/theme/tokens.css).
import './theme/tokens.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { StockroomApi } from '../common/contract/api.js';
import { createBrowserBridge } from './bridge/browser.js';
import { takeToken } from './bridge/token.js';
import { App } from './frame/App.js';
import { NoToken } from './frame/NoToken.js';
import './styles.css';
import { applyRememberedTheme } from './theme/theme.js';

/** `window.stockroom` from the preload in the desktop app; the browser bridge in a plain browser. */
function pickApi(): StockroomApi | null {
  if (window.stockroom) return window.stockroom;
  const token = takeToken(window.location, window.sessionStorage, window.history);
  return token ? createBrowserBridge({ origin: window.location.origin, token }) : null;
}

// The last run's theme before the first paint; the settings confirm or change it (renderer/theme/theme.ts).
applyRememberedTheme();
const api = pickApi();
const root = createRoot(document.getElementById('root')!);
root.render(<StrictMode>{api ? <App api={api} /> : <NoToken />}</StrictMode>);
