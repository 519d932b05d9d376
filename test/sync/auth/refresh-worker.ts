/**
 * A second desktop process for the cross-process refresh test:
 * `node --import tsx test/sync/auth/refresh-worker.ts <credentials.db> <baseUrl> <path> <durationMs> <concurrency>`.
 * Opens the same credentials file, makes authenticated calls for `durationMs` with `concurrency`
 * callers through its own TokenManager, and prints one JSON line of counts (never a token).
 */
import { CredentialStore, plainCipher } from '../../../main/sync/auth/credential-store.js';
import { TokenManager } from '../../../main/sync/auth/token-manager.js';
import { authedGet } from '../../support/oauth.js';

const [file, baseUrl, path, duration, concurrency] = process.argv.slice(2);
const store = CredentialStore.open(file!, plainCipher);
const manager = await TokenManager.open({ store });
const until = Date.now() + Number(duration);
const summary = { calls: 0, failures: 0, recovered401: 0, refreshes: 0, errors: [] as string[] };
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    while (Date.now() < until) {
      try {
        const r = await authedGet(baseUrl!, manager, path!);
        summary.calls++;
        if (r.status !== 200) summary.failures++;
        if (r.recovered401) summary.recovered401++;
      } catch (e) {
        summary.failures++;
        summary.errors.push((e as Error).name);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  }),
);
summary.refreshes = manager.refreshCount;
store.close();
process.stdout.write(`${JSON.stringify(summary)}\n`);
