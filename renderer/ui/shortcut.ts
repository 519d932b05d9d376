/**
 * Shortcuts are written once, in the form of `aria-keyshortcuts` ("Control+M", "Alt+Shift+C"), and
 * shown in the platform's words: Ctrl on Windows and Linux, ⌘ ⌥ ⇧ on macOS (where Control+K is
 * also taken as ⌘K by the handlers).
 */
const MAC_KEYS: Readonly<Record<string, string>> = { Control: '⌘', Meta: '⌘', Alt: '⌥', Shift: '⇧' };
const PC_KEYS: Readonly<Record<string, string>> = { Control: 'Ctrl', Meta: 'Win' };

export function isMac(platform: string = typeof navigator === 'undefined' ? '' : navigator.platform): boolean {
  return /Mac|iPhone|iPad/.test(platform);
}

export function shortcutText(keys: string, mac: boolean = isMac()): string {
  const parts = keys.split('+').map((k) => (mac ? MAC_KEYS[k] : PC_KEYS[k]) ?? k);
  return mac ? parts.join('') : parts.join('+');
}
