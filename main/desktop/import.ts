/**
 * A file import applied as one write (`stock.importApply`): every change goes through the same
 * path as a single edit (local-only: the service's local edits; a replica: the engine's queue
 * checks and the outbox), all of them in one SQLite transaction. A refusal anywhere undoes the
 * whole import and names the file's line; nothing is half-applied, a reload or a crash included.
 */
import type { ImportResultView, ParsedOf } from '../../common/contract/contract.js';
import { isServiceError, ServiceError } from '../service/errors.js';
import { BatchEditError } from '../service/stock/local-edits.js';
import type { Profile } from './profile.js';

type ImportInput = ParsedOf<'stock', 'importApply'>;

/** The history's ref of a change: which file and line it came from. */
export const importRef = (name: string, line: number) => `${name.slice(0, 150)} line ${line}`;

export async function applyImport(p: Profile, input: ImportInput): Promise<ImportResultView> {
  const edits = input.changes.map((c) => ({
    target: { userProductId: c.userProductId, type: c.type, ...(c.storeId !== undefined ? { storeId: c.storeId } : {}) },
    change: c.kind === 'count' ? { quantity: c.quantity } : { delta: c.delta },
    ref: importRef(input.name, c.line),
  }));
  try {
    if (p.kind === 'local') {
      await p.service.localEdits.editMany(
        p.principal,
        edits.map((e) => ({ target: e.target, change: e.change, meta: { author: p.author, operator: p.operator, ref: e.ref } })),
      );
    } else {
      p.engine.queueStockBatch(edits.map((e) => ({ ...e.target, ...e.change, author: p.author, operator: p.operator, ref: e.ref })));
    }
  } catch (e) {
    if (!(e instanceof BatchEditError)) throw e;
    const line = input.changes[e.index]?.line ?? 0;
    const cause = e.cause;
    // The refusal keeps its code and status; the message says which line of the file it was.
    if (isServiceError(cause)) throw new ServiceError(cause.status, cause.error, `Line ${line}: ${cause.message}`, [{ code: 'line', line }, ...cause.cause]);
    throw cause;
  }
  return { applied: edits.length };
}
