import type { MenuItemConstructorOptions } from 'electron';

/**
 * The application menu: the platform's usual roles (app menu on macOS, Edit with undo/redo/cut/
 * copy/paste/select all, View with reload and zoom, Window, Help). Pure, so its roles are tested
 * without Electron.
 */
export function menuTemplate(o: { isMac: boolean; appName: string; dev: boolean; openDataFolder: () => void }): MenuItemConstructorOptions[] {
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
    { role: 'help', submenu: [{ role: 'about' }, { label: 'Open data folder', click: () => o.openDataFolder() }] },
  ];
}
