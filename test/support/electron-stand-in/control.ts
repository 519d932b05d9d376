/**
 * The control channel between a test and the built main process running on the stand-in Electron
 * (Node's child-process IPC, `serialization: 'advanced'`): the child tells what the app did
 * (records), the test asks it to act as Chromium or the person would (commands) and gets one reply
 * per command. Both sides parse what they receive with these schemas.
 */
import { z } from 'zod';

export const standInRecord = z.discriminatedUnion('type', [
  /** `app.whenReady()` resolved. */
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('single-instance'), granted: z.boolean() }),
  z.object({ type: z.literal('second-instance'), argv: z.array(z.string()) }),
  z.object({
    type: z.literal('privileged-schemes'),
    schemes: z.array(z.object({ scheme: z.string(), privileges: z.record(z.string(), z.boolean()).optional() })),
  }),
  z.object({ type: z.literal('protocol-handled'), scheme: z.string() }),
  /** A Chromium switch appended with app.commandLine.appendSwitch, and whether the app was ready then (Electron ignores most after). */
  z.object({ type: z.literal('switch'), name: z.string(), value: z.string(), afterReady: z.boolean() }),
  z.object({ type: z.literal('ipc-handled'), channel: z.string() }),
  z.object({ type: z.literal('ipc-removed'), channel: z.string() }),
  /** A BrowserWindow was created with these options (functions dropped). */
  z.object({ type: z.literal('window'), window: z.number(), options: z.record(z.string(), z.unknown()) }),
  /** The window loaded a URL through the registered protocol handler (status of that answer). */
  z.object({ type: z.literal('load'), window: z.number(), url: z.string(), status: z.number() }),
  /** The preload ran in a sandbox-like context and exposed these keys of the main world. */
  z.object({ type: z.literal('preload'), window: z.number(), exposed: z.array(z.string()), error: z.string().optional() }),
  /** show, focus, maximize, restore, setOverlayIcon... */
  z.object({ type: z.literal('window-call'), window: z.number(), method: z.string(), args: z.array(z.unknown()) }),
  z.object({ type: z.literal('send'), window: z.number(), channel: z.string(), args: z.array(z.unknown()) }),
  z.object({ type: z.literal('notification'), id: z.number(), title: z.string(), body: z.string() }),
  z.object({ type: z.literal('badge'), count: z.number() }),
  z.object({ type: z.literal('open-external'), url: z.string() }),
  z.object({ type: z.literal('open-path'), path: z.string() }),
  z.object({ type: z.literal('menu'), items: z.array(z.string()) }),
  z.object({ type: z.literal('error-box'), title: z.string(), content: z.string() }),
  z.object({ type: z.literal('quit'), phase: z.enum(['before-quit', 'prevented', 'will-quit']) }),
]);
export type StandInRecord = z.infer<typeof standInRecord>;

const bounds = z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() });

export const standInCommand = z.discriminatedUnion('cmd', [
  /** ipcRenderer.invoke as a frame at `senderUrl` (default: the window's page) would; `subframe`: from an iframe. */
  z.object({ cmd: z.literal('invoke'), channel: z.string(), payload: z.unknown(), senderUrl: z.string().optional(), subframe: z.boolean().optional() }),
  /** `window.<key>.<area>.<fn>(payload)` in the page: through the API the preload exposed. */
  z.object({ cmd: z.literal('api'), area: z.string(), fn: z.string(), payload: z.unknown() }),
  /** A request of the page through the app's protocol handler. */
  z.object({ cmd: z.literal('fetch'), url: z.string(), method: z.string().optional() }),
  /** The page asks for a permission: both session handlers answer. */
  z.object({ cmd: z.literal('permission'), permission: z.string() }),
  /** An http(s) response passing through session.webRequest.onHeadersReceived. */
  z.object({ cmd: z.literal('headers'), url: z.string() }),
  /** The page tries to navigate (a link, location.href): will-navigate. */
  z.object({ cmd: z.literal('navigate'), url: z.string() }),
  /** window.open or a target=_blank link: the window open handler. */
  z.object({ cmd: z.literal('open-window'), url: z.string() }),
  z.object({ cmd: z.literal('click-notification'), id: z.number() }),
  /** The person moves or resizes the window. */
  z.object({ cmd: z.literal('set-bounds'), bounds }),
  /** The person quits (Cmd+Q, the menu): app.quit(). */
  z.object({ cmd: z.literal('quit') }),
]);
export type StandInCommand = z.infer<typeof standInCommand>;

/** What the test sends: a command with its id. */
export const commandMessage = z.object({ id: z.number(), command: standInCommand });
export type CommandMessage = z.infer<typeof commandMessage>;

export const replyMessage = z.union([
  z.object({ id: z.number(), ok: z.literal(true), value: z.unknown() }),
  z.object({ id: z.number(), ok: z.literal(false), error: z.string() }),
]);
export type ReplyMessage = z.infer<typeof replyMessage>;

/** What the child sends: a record of what the app did, or the reply to a command. */
export const childMessage = z.union([z.object({ record: standInRecord }), z.object({ reply: replyMessage })]);
export type ChildMessage = z.infer<typeof childMessage>;

/** The answer of a `fetch` command. */
export const fetchAnswer = z.object({ status: z.number(), headers: z.record(z.string(), z.string()), body: z.instanceof(Uint8Array) });
export const permissionAnswer = z.object({ requested: z.boolean(), checked: z.boolean() });
export const navigateAnswer = z.object({ prevented: z.boolean() });
export const openWindowAnswer = z.object({ action: z.enum(['allow', 'deny']) });
export const headersAnswer = z.object({ responseHeaders: z.record(z.string(), z.array(z.string())) });
