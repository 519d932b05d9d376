import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A server in its own process (load generator and server do not share an event loop). */
export async function startChild(script: string, args: string[] = []): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  // CHILD_FLAGS: extra node flags for the servers, e.g. CHILD_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"
  // to profile them under the bench's load (node refuses --cpu-prof in NODE_OPTIONS).
  const flags = process.env.CHILD_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
