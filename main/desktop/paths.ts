import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { fileNameProblem } from '../../common/messages/file-names.js';

export const APP_NAME = 'Stockroom';

/**
 * The user-data folder, the same one Electron's `app.getPath('userData')` gives the desktop app
 * (so the browser mode opens the same data): %APPDATA%\Stockroom on Windows, ~/Library/Application
 * Support/Stockroom on macOS, $XDG_CONFIG_HOME/Stockroom (~/.config/Stockroom) on Linux.
 * STOCKROOM_DATA overrides it in both modes.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (env.STOCKROOM_DATA) return env.STOCKROOM_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), APP_NAME);
}

/**
 * Where a save dialog starts for a file the marketplace named: always inside the downloads
 * folder. The name is reduced to its last part, and a name that could leave the folder or read as
 * something else ("..", direction-changing characters) becomes "attachment".
 */
export function downloadPath(downloads: string, name: string): string {
  const last = basename(name.replace(/\\/g, '/'));
  return join(downloads, fileNameProblem(last) ? 'attachment' : last);
}
