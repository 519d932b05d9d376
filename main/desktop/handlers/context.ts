import type { SessionView, SettingsView } from '../../../common/contract/contract.js';
import type { EventFeed } from '../events.js';
import type { DesktopHost } from '../host.js';
import type { Profile } from '../profile.js';
import type { QuickReplies } from '../quick-replies.js';
import type { Session } from '../session.js';
import type { SettingsStore } from '../settings.js';
import type { Staging } from '../staging.js';
import type { UpdateController } from '../updates.js';

/** What the core gives its handlers; each area takes the few parts it uses (`Pick<HandlerContext, ...>`). */
export interface HandlerContext {
  dataDir: string;
  /** The app's version, when the shell knows it. */
  version: string | undefined;
  host: DesktopHost;
  settings: SettingsStore;
  session: Session;
  staging: Staging;
  quickReplies: QuickReplies;
  feed: Pick<EventFeed, 'emit' | 'scheduleStatus' | 'stockChanged' | 'unreadMayHaveChanged'>;
  /** The open profile, once any switch in progress is over. */
  current(): Promise<Profile>;
  /** Replaces the open profile when the settings now ask for another one. */
  reconcile(): Promise<void>;
  settingsView(): SettingsView;
  sessionView(): Promise<SessionView>;
  /** Whether a link may open in the system browser (main/desktop/external.ts). */
  linkAllowed(url: string): boolean;
  /** The picture hosts of the page's content security policy (main/security.ts). */
  pictureHosts: readonly string[];
  /** The app's own updates; null where they are off (development, the browser mode). */
  updates: UpdateController | null;
  /** Where unexpected errors are reported. */
  log(e: unknown): void;
}
