/**
 * The desktop side of the hostile-marketplace tests (issue 25), as a real child process: opens
 * the replica, starts the engine online (it pulls at start, as the app does), and prints how the
 * pull ended (`pulled` or `failed <message>`) and the largest resident memory seen meanwhile
 * (`rss <bytes>`), then stops and exits 0. A crash would be a non-zero exit or no result line.
 *
 * Usage: node --import tsx test/support/hostile-child.ts '<json config>'
 */
import { newEngine, newReplica } from './sync-harness.js';

interface ChildConfig {
  replicaDir: string;
  url: string;
  token: string;
  sellerId: number;
}

async function main(): Promise<void> {
  const cfg = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
  let rss = process.memoryUsage.rss();
  // Sampled often: a body that grew unbounded would show here before the pull ended.
  const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage.rss())), 5);
  const replica = newReplica(cfg.replicaDir);
  const engine = newEngine(replica, { url: cfg.url, token: cfg.token, sellerId: cfg.sellerId }, { pullOnStart: true, concurrency: 2 });
  const outcome = new Promise<string>((resolve) => {
    engine.once('pulled', () => resolve('pulled'));
    engine.once('sync-error', (e) => resolve(`failed ${e.name}: ${e.message.replace(/\n/g, ' ')}`));
  });
  engine.start();
  const line = await outcome;
  clearInterval(sampler);
  rss = Math.max(rss, process.memoryUsage.rss());
  process.stdout.write(`${line}\nrss ${rss}\n`);
  await engine.stop();
  replica.close();
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`child failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
