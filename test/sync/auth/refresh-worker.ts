/**
 * A second desktop process for the cross-process refresh test:
 * `node --import tsx test/sync/auth/refresh-worker.ts <credentials.db> <baseUrl> <path> <concurrency>`.
 * Opens the same credentials file and makes authenticated calls with `concurrency` callers through
 * its own TokenManager until its stdin says `stop` (or closes: the test is gone), printing
 * `progress <calls> <refreshes>` as they grow, then one JSON line of counts (never a token).
 */
import { CredentialStore, plainCipher } from '../../../main/sync/auth/credential-store.js';
import { TokenManager } from '../../../main/sync/auth/token-manager.js';
import { authedGet } from '../../support/oauth.js';

const [file, baseUrl, path, concurrency] = process.argv.slice(2);
const store = CredentialStore.open(file!, plainCipher);
const manager = await TokenManager.open({ store });
let stopped = false;
process.stdin.on('data', (d: Buffer) => void (d.toString().includes('stop') && (stopped = true)));
process.stdin.on('end', () => void (stopped = true));
const summary = { calls: 0, failures: 0, recovered401: 0, refreshes: 0, errors: [] as string[] };
let reported = '';
const report = () => {
  // The first 21 calls one by one, then whenever the refresh count grows.
  const line = `progress ${Math.min(summary.calls, 21)} ${manager.refreshCount}`;
  if (line !== reported) process.stdout.write(`${(reported = line)}\n`);
};
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    while (!stopped) {
      try {
        const r = await authedGet(baseUrl!, manager, path!);
        summary.calls++;
        if (r.status !== 200) summary.failures++;
        if (r.recovered401) summary.recovered401++;
      } catch (e) {
        summary.failures++;
        summary.errors.push((e as Error).name);
      }
      report();
      await new Promise((r) => setTimeout(r, 5));
    }
  }),
);
summary.refreshes = manager.refreshCount;
store.close();
process.stdout.write(`${JSON.stringify(summary)}\n`);
