/**
 * The desktop side of the tally's kill -9 test, as a real child process: on a replica pulled
 * before, it scans each code once and applies the tally, round after round, through the tally's
 * own code (main/desktop/scan-tally.ts) and the real outbox, printing `scan <outcome>` once a scan is
 * committed and `applied` once an Apply is. The engine never sends (it is not started): what a
 * kill leaves is all in the file.
 *
 * Usage: node --import tsx test/support/tally-child.ts '<json config>'
 */
import { systemClock } from '../../main/service/clock.js';
import { type TallyProfile, scanTally } from '../../main/desktop/scan-tally.js';
import { newEngine, newReplica } from './sync-harness.js';

interface ChildConfig {
  replicaDir: string;
  url: string;
  token: string;
  sellerId: number;
  storeId: string;
  codes: string[];
}

async function main(): Promise<void> {
  const cfg = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
  const replica = newReplica(cfg.replicaDir);
  const engine = newEngine(replica, { url: cfg.url, token: cfg.token, sellerId: cfg.sellerId }, { mode: 'offline' });
  const p: TallyProfile = {
    kind: 'remote',
    db: replica.db,
    sellerId: cfg.sellerId,
    principal: { userId: cfg.sellerId, applicationId: 0 },
    author: 'ana',
    engine,
    service: {
      clock: systemClock,
      // A replica applies through the outbox, never through local edits.
      localEdits: { editMany: () => Promise.reject(new Error('a replica has no local edits')) },
    },
  };
  process.stdout.write('ready\n');
  for (;;) {
    for (const code of cfg.codes) {
      const { scan } = scanTally.add(p, cfg.storeId, code);
      process.stdout.write(`scan ${scan.outcome}\n`);
    }
    await scanTally.apply(p, cfg.storeId);
    process.stdout.write('applied\n');
    // Lets the parent's SIGKILL land anywhere, the stdout pipe drained now and then.
    await new Promise((r) => setImmediate(r));
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
