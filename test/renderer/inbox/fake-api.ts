/**
 * A fake `StockroomApi` for component tests: implements the typed interface, answers every call
 * from a handler the test gives (or a `not implemented` error), records every call, and lets the
 * test emit events. No DOM, no network.
 */
import { configure } from '@testing-library/react';
import type { StockroomApi } from '../../../preload/api.js';
import { CHANNEL_NAMES } from '../../../preload/channels.js';
import type { Area, ConversationView, EventOf, EventType, FnOf, InputOf, MessageView, OutputOf, Result, StockroomEvent, ThreadView } from '../../../preload/contract.js';

// The component tests share a busy machine with servers and browsers: give findBy / waitFor time.
configure({ asyncUtilTimeout: 5000 });

export type Handler<A extends Area, F extends FnOf<A>> = (payload: InputOf<A, F>) => Result<OutputOf<A, F>> | Promise<Result<OutputOf<A, F>>>;
export type Handlers = { [A in Area]?: { [F in FnOf<A>]?: Handler<A, F> } };

export interface FakeApi {
  api: StockroomApi;
  calls: { channel: string; payload: unknown }[];
  callsTo(channel: string): unknown[];
  emit(event: StockroomEvent): void;
  /** Replaces (or adds) handlers. */
  on(handlers: Handlers): void;
}

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: string, message: string, status = 400): Result<never> => ({ ok: false, error: { code, message, status } });

export function fakeApi(initial: Handlers = {}): FakeApi {
  const handlers: Record<string, Record<string, (p: unknown) => unknown>> = {};
  const calls: { channel: string; payload: unknown }[] = [];
  const listeners = new Map<EventType, Set<(e: StockroomEvent) => void>>();
  const on = (h: Handlers) => {
    for (const [area, fns] of Object.entries(h)) handlers[area] = { ...handlers[area], ...(fns as Record<string, (p: unknown) => unknown>) };
  };
  on(initial);
  const api: Record<string, unknown> = {};
  for (const [area, fns] of Object.entries(CHANNEL_NAMES)) {
    const group: Record<string, (p?: unknown) => Promise<unknown>> = {};
    for (const fn of fns) {
      group[fn] = async (payload?: unknown) => {
        calls.push({ channel: `${area}.${fn}`, payload });
        const h = handlers[area]?.[fn];
        if (!h) return fail('not_implemented', `${area}.${fn} is not faked`);
        return h(payload);
      };
    }
    api[area] = group;
  }
  api.subscribe = <T extends EventType>(type: T, listener: (e: EventOf<T>) => void) => {
    let set = listeners.get(type);
    if (!set) listeners.set(type, (set = new Set()));
    const l = listener as (e: StockroomEvent) => void;
    set.add(l);
    return () => set.delete(l);
  };
  return {
    api: api as unknown as StockroomApi,
    calls,
    callsTo: (channel) => calls.filter((c) => c.channel === channel).map((c) => c.payload),
    emit: (e) => {
      for (const l of listeners.get(e.type) ?? []) l(e);
    },
    on,
  };
}

// ---------------------------------------------------------------- builders

export const SELLER = 1780493260;
export const BUYER = 1780493262;

export function conversation(over: Partial<ConversationView> = {}): ConversationView {
  return {
    packId: 2000003000001,
    siteId: 'MLA',
    buyer: { id: BUYER, nickname: 'COMPRADOR_TEST' },
    orderIds: [2000009000001],
    blocked: null,
    lastMessage: { id: 'm1', text: 'Hola, ¿viene con funda?', date: '2026-11-18T13:05:00Z', fromSeller: false, moderation: 'clean' },
    unread: 1,
    needsReply: true,
    queued: 0,
    ...over,
  };
}

export function message(over: Partial<MessageView> & { fromSeller?: boolean; moderation?: { status: string; reason?: string | null } } = {}): MessageView {
  const { fromSeller, moderation, ...rest } = over;
  const from = fromSeller ? SELLER : BUYER;
  return {
    id: 'm1',
    site_id: 'MLA',
    client_id: null,
    from: { user_id: from },
    to: { user_id: from === SELLER ? BUYER : SELLER },
    status: 'available',
    subject: null,
    text: 'Hola, ¿viene con funda?',
    message_date: { received: '2026-11-18T13:05:00Z', available: '2026-11-18T13:05:01Z', notified: null, created: '2026-11-18T13:05:00Z', read: null },
    message_moderation: { status: moderation?.status ?? 'clean', reason: moderation?.reason ?? null, source: 'online', moderation_date: '2026-11-18T13:05:01Z' },
    message_attachments: null,
    message_resources: [{ id: '2000003000001', name: 'packs' }],
    conversation_first_message: false,
    ...rest,
  };
}

export function thread(over: Partial<ThreadView> = {}): ThreadView {
  const messages = over.messages ?? [message()];
  return {
    packId: 2000003000001,
    paging: { limit: 50, offset: 0, total: messages.length },
    conversation_status: { status: 'active', substatus: null },
    messages,
    seller_max_message_length: 350,
    buyer_max_message_length: 3500,
    queued: [],
    ...over,
  };
}
