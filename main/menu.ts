import type { MenuItemConstructorOptions } from 'electron';

/**
 * The application menu: the platform's usual roles (app menu on macOS, Edit with undo/redo/cut/
 * copy/paste/select all, View with reload and zoom, Window, Help). Pure, so its roles are tested
 * without Electron.
 */
export function menuTemplate(o: {
  isMac: boolean;
  appName: string;
  dev: boolean;
  openDataFolder: () => void;
  /** Present when updates are on (a packaged app with a feed): "Check for Updates…" asks the feed now. */
  checkForUpdates?: () => void;
}): MenuItemConstructorOptions[] {
  const updates: MenuItemConstructorOptions[] = o.checkForUpdates ? [{ label: 'Check for Updates…', click: () => o.checkForUpdates?.() }] : [];
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    ...(o.dev ? ([{ role: 'toggleDevTools' }] as MenuItemConstructorOptions[]) : []),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  return [
    ...(o.isMac
      ? ([
          {
            label: o.appName,
            submenu: [
              { role: 'about' },
              ...updates,
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          },
        ] as MenuItemConstructorOptions[])
      : []),
    { role: 'fileMenu', submenu: [o.isMac ? { role: 'close' } : { role: 'quit' }] },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    // macOS has the update check in the app menu, the others in Help (as most apps place it).
    { role: 'help', submenu: [{ role: 'about' }, ...(o.isMac ? [] : updates), { label: 'Open data folder', click: () => o.openDataFolder() }] },
  ];
}
