import type { Area, FnOf, OutputOf, ParsedOf } from '../../../common/contract/contract.js';

/** One function of the contract as the core implements it: the validated payload in, the answer out (errors are thrown). */
export type Handler<A extends Area, F extends FnOf<A>> = (input: ParsedOf<A, F>) => Promise<OutputOf<A, F>>;

/** Every function of one area of the contract (common/contract/contract.ts). */
export type AreaHandlers<A extends Area> = { [F in FnOf<A>]: Handler<A, F> };

/** Every function of every area: what main/desktop/dispatch.ts turns into the core's `api`. */
export type Handlers = { [A in Area]: AreaHandlers<A> };
