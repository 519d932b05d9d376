/**
 * The one test double of `window.stockroom` for the screens' component tests: the real typed API
 * object (common/contract/api.ts `createApi`) over a fake transport that records every call and answers
 * it per channel, and lets the test emit events. No DOM, no network; the e2e tests use the real
 * thing. Data builders live next to it: fake-stock.ts (the stock grid, with `fakeStockroom`) and
 * fake-inbox.ts (conversations, messages, threads).
 *
 * A call is answered by `answers[channel]` when the test set one (it wins), else by the handler
 * of its area and function (`fakeApi(handlers)`, `on(handlers)`; or untyped by channel name, the
 * second argument of `fakeApi`, as the stock grid's in-memory model does), else `unsupported`.
 *
 * No Node or DOM types here: the renderer's component tests compile this file too.
 */
import { configure } from '@testing-library/react';
import { type StockroomApi, createApi } from '../../common/contract/api.js';
import type { Area, FnOf, InputOf, OutputOf, Result, StockroomEvent } from '../../common/contract/contract.js';
import type { ErrorCode } from '../../common/errors.js';

// The component tests share a busy machine with servers and browsers: give findBy / waitFor time.
configure({ asyncUtilTimeout: 5000 });

export type Handler<A extends Area, F extends FnOf<A>> = (payload: InputOf<A, F>) => Result<OutputOf<A, F>> | Promise<Result<OutputOf<A, F>>>;
export type Handlers = { [A in Area]?: { [F in FnOf<A>]?: Handler<A, F> } };
/** An answer by channel name (`stock.grid`): gets the payload as sent. */
export type Answer = (payload: unknown) => Result<unknown> | Promise<Result<unknown>>;

export interface Call {
  /** `<area>.<function>`, e.g. `stock.grid`. */
  channel: string;
  payload: unknown;
}

export interface FakeApi {
  api: StockroomApi;
  /** Every call, in order. */
  calls: Call[];
  /** The payloads of the calls to `channel` (`stock.adjust`), in order. */
  callsTo(channel: string): unknown[];
  /** Answers by channel that win over the handlers; delete one to go back to its handler. */
  answers: Record<string, Answer>;
  /** Replaces (or adds) handlers. */
  on(handlers: Handlers): void;
  /** Delivers an event to the subscribers of its type. */
  emit(event: StockroomEvent): void;
}

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string, status = 400): Result<never> => ({ ok: false, error: { code, message, status } });

const PREFIX = 'stockroom:';

export function fakeApi(initial: Handlers = {}, byChannel: Record<string, Answer> = {}): FakeApi {
  const handlers: Record<string, Answer> = { ...byChannel };
  const listeners = new Set<(e: StockroomEvent) => void>();
  const on = (h: Handlers) => {
    for (const [area, fns] of Object.entries(h)) {
      for (const [fn, handler] of Object.entries(fns as Record<string, Answer | undefined>)) if (handler) handlers[`${area}.${fn}`] = handler;
    }
  };
  on(initial);
  const fake: FakeApi = {
    api: createApi({
      async invoke(channel, payload) {
        const name = channel.startsWith(PREFIX) ? channel.slice(PREFIX.length) : channel;
        fake.calls.push({ channel: name, payload });
        const answer = fake.answers[name] ?? handlers[name];
        if (!answer) return fail('unsupported', `${name} is not faked`);
        return answer(payload);
      },
      listen(listener) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    }),
    calls: [],
    callsTo: (channel) => fake.calls.filter((c) => c.channel === channel).map((c) => c.payload),
    answers: {},
    on,
    emit: (e) => {
      for (const l of [...listeners]) l(e);
    },
  };
  return fake;
}
