import { AsyncLocalStorage } from 'node:async_hooks';
import type { ZodType } from 'zod';
import {
  type Area,
  CHANNEL_NAMES,
  ERROR_CODES,
  type FnOf,
  type OutputOf,
  type ParsedOf,
  type Result,
  channelName,
  contract,
} from '../../common/contract/contract.js';
import { toApiError } from './errors.js';
import type { AreaHandlers, Handlers } from './handlers/types.js';

/** One function of the API: one unchecked payload in, a `Result` out. */
export type ApiCall<A extends Area, F extends FnOf<A>> = (payload?: unknown) => Promise<Result<OutputOf<A, F>>>;
/** The functions of one area. */
export type AreaApi<A extends Area> = { [F in FnOf<A>]: ApiCall<A, F> };
/** The core's API: every function of the contract, by area. */
export type CoreApi = { [A in Area]: AreaApi<A> };

/** One call by channel name, whatever its answer. */
type ChannelCall = (payload: unknown) => Promise<Result<unknown>>;

/** The contract as the dispatch reads it: each function's schema parses into the payload its handler takes (checked here). */
const SCHEMAS: { [A in Area]: { [F in FnOf<A>]: { input: ZodType<ParsedOf<A, F>> } } } = contract;
/** The functions of each area (common/contract/channels.ts, checked against the contract in both directions). */
const NAMES: { [A in Area]: readonly FnOf<A>[] } = CHANNEL_NAMES;

/** Calls in progress, by a token that identifies each (so a call that switches profiles does not wait for itself). */
export class CallsInFlight {
  private readonly inflight = new Map<object, Promise<unknown>>();
  private readonly context = new AsyncLocalStorage<object>();

  /** Runs `call` as a call in progress until `finish` (which awaits it) is over. */
  async run<T, R>(call: () => Promise<T>, finish: (work: Promise<T>) => Promise<R>): Promise<R> {
    const token = {};
    const work = this.context.run(token, call);
    this.inflight.set(token, work);
    try {
      return await finish(work);
    } finally {
      this.inflight.delete(token);
    }
  }

  /** Waits for the calls in progress (other than the caller's own) to finish, 10 s at most. */
  async settle(): Promise<void> {
    const own = this.context.getStore();
    const others = [...this.inflight].filter(([token]) => token !== own).map(([, work]) => work);
    await Promise.race([Promise.allSettled(others), new Promise((r) => setTimeout(r, 10_000).unref())]);
  }
}

export interface DispatchOptions {
  calls: CallsInFlight;
  /** The core is closing: new calls are refused. */
  closed(): boolean;
  /** The open profile's group commit (main/db/group-commit.ts), if any. */
  writes(): { readonly settled: boolean; durable(): Promise<void> } | undefined;
  log(e: unknown): void;
}

/**
 * One handler as a call: the payload parsed by its schema, refused once the core is closing, run
 * as a call in progress, answered once what it wrote is durable, every error as a value.
 */
function guarded<I, O>(schema: ZodType<I>, impl: (input: I) => Promise<O>, o: DispatchOptions): (payload?: unknown) => Promise<Result<O>> {
  return async (payload?: unknown): Promise<Result<O>> => {
    const parsed = schema.safeParse(payload);
    if (!parsed.success) return { ok: false, error: toApiError(parsed.error, o.log) };
    if (o.closed()) return { ok: false, error: { code: ERROR_CODES.busy, message: 'The app is closing', status: 503 } };
    return o.calls.run(
      () => impl(parsed.data),
      async (work): Promise<Result<O>> => {
        try {
          const value = await work;
          // As the HTTP adapter: nothing is told before the commits it could have seen are on disk.
          const writes = o.writes();
          if (writes && !writes.settled) await writes.durable();
          return { ok: true, value };
        } catch (e) {
          return { ok: false, error: toApiError(e, o.log) };
        }
      },
    );
  };
}

/** The calls of one area, also listed by channel name in `byChannel`. */
function areaApi<A extends Area>(area: A, impls: AreaHandlers<A>, o: DispatchOptions, byChannel: Map<string, ChannelCall>): AreaApi<A> {
  const fns: Partial<AreaApi<A>> = {};
  for (const fn of NAMES[area]) {
    const call = guarded(SCHEMAS[area][fn].input, impls[fn], o);
    fns[fn] = call;
    byChannel.set(channelName(area, fn), call);
  }
  // Every function of the area is set: NAMES[area] lists them all.
  return fns as AreaApi<A>;
}

export interface Dispatch {
  api: CoreApi;
  /** One call by channel name (`stockroom:stock.adjust`): unknown channel, bad payload, service errors, all as values. */
  call(channel: string, payload: unknown): Promise<Result<unknown>>;
}

/** The handlers as the core's API (main/ipc and main/web call it by channel name). */
export function dispatch(handlers: Handlers, o: DispatchOptions): Dispatch {
  const byChannel = new Map<string, ChannelCall>();
  const area = <A extends Area>(a: A) => areaApi(a, handlers[a], o, byChannel);
  const api: CoreApi = {
    app: area('app'),
    settings: area('settings'),
    session: area('session'),
    stock: area('stock'),
    outbox: area('outbox'),
    messages: area('messages'),
    brands: area('brands'),
    sync: area('sync'),
    updates: area('updates'),
    counts: area('counts'),
    operators: area('operators'),
    tally: area('tally'),
  };
  return {
    api,
    call: async (channel, payload) => {
      const call = byChannel.get(channel);
      if (!call) return { ok: false, error: { code: ERROR_CODES.unknownChannel, message: `Unknown channel ${channel.slice(0, 100)}`, status: 404 } };
      return call(payload);
    },
  };
}
