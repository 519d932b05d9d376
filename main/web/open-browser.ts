import { spawn } from 'node:child_process';

/**
 * Opens a URL with the operating system's handler (the browser mode's `openExternal`, used for the
 * marketplace sign-in page). The core checks the URL against the allow-list before this runs; the
 * URL is passed as one argument, never through a shell.
 */
export function openWithSystem(url: string): Promise<void> {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
