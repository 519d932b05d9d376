import { operatorDesk } from '../operators.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';

/** `operators`: the people of a shared workstation and who is signed in (one desk per core: its wrong-PIN counts). */
export function operatorsHandlers(ctx: Pick<HandlerContext, 'current'>) {
  const desk = operatorDesk();
  return {
    list: async () => desk.view(await ctx.current()),
    add: async ({ name, pin }) => desk.add(await ctx.current(), name, pin),
    remove: async ({ id }) => desk.remove(await ctx.current(), id),
    switch: async ({ id, pin }) => desk.switchTo(await ctx.current(), id, pin),
    signOut: async () => desk.signOut(await ctx.current()),
  } satisfies AreaHandlers<'operators'>;
}
