/**
 * Operators of a shared workstation (issue 27), as one running core keeps them: the list is the
 * open profile's database (main/service/operators/), the one signed in is `Profile.operator` (in
 * the main process: a reload of the page in the browser mode keeps it), and the wrong-PIN counts
 * are per profile folder for the life of the core, so reopening a profile does not reset a lock.
 */
import type { OperatorsView } from '../../common/operator-views.js';
import type { Db } from '../db/open.js';
import { operatorsRepo } from '../db/repos/operators.js';
import type { AttemptLimiter } from '../service/auth/attempt-limits.js';
import { type OperatorsService, operatorsService, pinLimiter } from '../service/operators/operators.js';
import type { Profile } from './profile.js';

export type OperatorProfile = Pick<Profile, 'db' | 'dir' | 'operator' | 'service'>;

export function operatorDesk() {
  const limiters = new Map<string, AttemptLimiter>();
  const services = new WeakMap<Db, OperatorsService>();
  const serviceOf = (p: OperatorProfile): OperatorsService => {
    let s = services.get(p.db);
    if (!s) {
      let limiter = limiters.get(p.dir);
      if (!limiter) limiters.set(p.dir, (limiter = pinLimiter(p.service.clock)));
      services.set(p.db, (s = operatorsService({ repo: operatorsRepo(p.db), clock: p.service.clock, limiter })));
    }
    return s;
  };

  const view = (p: OperatorProfile): OperatorsView => {
    const operators = serviceOf(p).list();
    const current = operators.find((o) => o.id === p.operator?.id) ?? null;
    // Removed meanwhile: edits are the account's alone again.
    if (current === null) p.operator = null;
    return { operators, current };
  };

  return {
    view,
    async add(p: OperatorProfile, name: string, pin: string): Promise<OperatorsView> {
      await serviceOf(p).add(name, pin);
      return view(p);
    },
    remove(p: OperatorProfile, id: number): OperatorsView {
      serviceOf(p).remove(id);
      if (p.operator?.id === id) p.operator = null;
      return view(p);
    },
    /** A wrong PIN leaves whoever was signed in as they were. */
    async switchTo(p: OperatorProfile, id: number, pin: string): Promise<OperatorsView> {
      p.operator = await serviceOf(p).verify(id, pin);
      return view(p);
    },
    signOut(p: OperatorProfile): OperatorsView {
      p.operator = null;
      return view(p);
    },
  };
}
export type OperatorDesk = ReturnType<typeof operatorDesk>;
