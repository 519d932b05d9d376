/**
 * The names of the channels and the constants of the wire, without the schemas: this is all the
 * preload bundles (no zod in the sandboxed preload). The list is checked against the contract at
 * compile time in both directions, so a channel cannot be added to one and forgotten in the other.
 */
import type { Contract } from './contract.js';

/** Prefix of every invoke channel: `stockroom:<area>.<function>`. */
export const CHANNEL_PREFIX = 'stockroom:';
/** The one IPC channel events travel on (main → renderer). */
export const EVENT_CHANNEL = 'stockroom:event';

/** The desktop shell's own error codes; the whole closed set is common/errors.ts. */
export { ERROR_CODES } from '../errors.js';

export const CHANNEL_NAMES = {
  app: ['info', 'openExternal'],
  settings: ['get', 'update'],
  session: ['status', 'signIn', 'cancelSignIn', 'signOut'],
  stock: [
    'grid',
    'locate',
    'rows',
    'lookup',
    'cell',
    'history',
    'insight',
    'adjust',
    'count',
    'transfer',
    'undo',
    'resolveConflict',
    'stores',
    'createListing',
    'importApply',
    'readWorkbook',
    'exportXlsx',
    'setReorderPoint',
    'views',
    'saveView',
    'deleteView',
    'scanStore',
    'setScanStore',
    'hiddenColumns',
    'setHiddenColumns',
  ],
  outbox: ['list', 'retry', 'discard'],
  messages: [
    'conversations',
    'thread',
    'send',
    'stageFile',
    'pickFiles',
    'discardFile',
    'readAttachment',
    'saveAttachment',
    'drafts',
    'saveDraft',
    'quickReplies',
    'saveQuickReplies',
  ],
  brands: ['list', 'detail', 'accounts'],
  sync: ['status', 'pullNow', 'visible'],
  updates: ['status', 'check', 'install'],
  counts: ['list', 'start', 'get', 'scan', 'set', 'review', 'apply', 'cancel'],
  operators: ['list', 'add', 'remove', 'switch', 'signOut'],
  tally: ['list', 'add', 'undo', 'clear', 'apply'],
} as const satisfies { [A in keyof Contract]: readonly (keyof Contract[A])[] };

// Every function of the contract is listed, and every listed area exists in the contract.
type Listed = { [A in keyof typeof CHANNEL_NAMES]: (typeof CHANNEL_NAMES)[A][number] };
type Unlisted = { [A in keyof Contract]: Exclude<keyof Contract[A], A extends keyof Listed ? Listed[A] : never> }[keyof Contract];
type UnknownAreas = Exclude<keyof typeof CHANNEL_NAMES, keyof Contract>;
export const CHANNELS_COMPLETE: [Unlisted | UnknownAreas] extends [never] ? true : { missing: Unlisted | UnknownAreas } = true;

export const channelName = (area: string, fn: string) => `${CHANNEL_PREFIX}${area}.${fn}`;

/** Every channel: area, function and channel name. */
export const CHANNELS: readonly { area: string; fn: string; channel: string }[] = Object.entries(CHANNEL_NAMES).flatMap(([area, fns]) =>
  fns.map((fn) => ({ area, fn, channel: channelName(area, fn) })),
);
