/**
 * A file import applied as one write (`stock.importApply`): every change goes through the same
 * path as a single edit (local-only: the service's local edits; a replica: the engine's queue
 * checks and the outbox), all of them in one SQLite transaction. A refusal anywhere undoes the
 * whole import and names the file's line; nothing is half-applied, a reload or a crash included.
 *
 * The same transaction records the import's fingerprint (migration 028: digests of the file and of
 * its changes, when, the account and the operator), and a file applied before is refused until
 * the person confirms it (`again`): the refusal says when and by whom.
 */
import { createHash } from 'node:crypto';
import type { ImportResultView, ParsedOf } from '../../common/contract/contract.js';
import { isServiceError, ServiceError } from '../service/errors.js';
import { BatchEditError } from '../service/stock/local-edits.js';
import { type ImportFingerprintRow, importsRepo } from '../db/repos/imports.js';
import type { Profile } from './profile.js';

type ImportInput = ParsedOf<'stock', 'importApply'>;

/** The history's ref of a change: which file and line it came from. */
export const importRef = (name: string, line: number) => `${name.slice(0, 150)} line ${line}`;

/**
 * A digest of the changes as applied, whatever their order and the file's other columns or notes:
 * product, location, and the count or adjustment.
 */
export function changesDigest(changes: ImportInput['changes']): string {
  const rows = changes.map((c) => JSON.stringify([c.userProductId, c.type, c.storeId ?? '', c.kind, c.kind === 'count' ? c.quantity : c.delta])).sort();
  return createHash('sha256').update(rows.join('\n')).digest('hex');
}

export const importErrors = {
  /** The cause carries what the screen asks with: which file, when, who. */
  appliedBefore: (f: ImportFingerprintRow) =>
    new ServiceError(
      409,
      'conflict',
      `${f.name} was already applied on ${new Date(f.applied_at).toISOString()} by ${f.operator_name ?? f.author} (${f.changes} changes): apply it again only if that is meant`,
      [{ code: 'imported_before', name: f.name, appliedAt: f.applied_at, author: f.author, operator: f.operator_name, changes: f.changes }],
    ),
};

export async function applyImport(p: Profile, input: ImportInput): Promise<ImportResultView> {
  const imports = importsRepo(p.db);
  const fingerprint = { file_digest: input.fileDigest ?? null, rows_digest: changesDigest(input.changes) };
  /** In the import's own transaction: a file applied before is asked about first; then it is recorded. */
  const remember = () => {
    const before = input.again === true ? undefined : imports.sameAs(p.sellerId, fingerprint.file_digest, fingerprint.rows_digest);
    if (before) throw importErrors.appliedBefore(before);
    imports.record({
      seller_id: p.sellerId,
      name: input.name,
      ...fingerprint,
      changes: input.changes.length,
      author: p.author,
      operator_id: p.operator?.id ?? null,
      operator_name: p.operator?.name ?? null,
      applied_at: p.service.clock.now(),
    });
  };
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
        remember,
      );
    } else {
      p.db
        .transaction(() => {
          remember();
          p.engine.queueStockBatch(edits.map((e) => ({ ...e.target, ...e.change, author: p.author, operator: p.operator, ref: e.ref })));
        })
        .immediate();
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
