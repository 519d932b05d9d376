import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildCommand, ChildConfig } from './protocol.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
/** Generous: a busy machine; only a test that is already failing waits this long. */
const ANSWER_TIMEOUT_MS = 60_000;

/** An answer the child gave to a command: its value, or the app's refusal. */
export type Answer = { ok: true; value: unknown } | { ok: false; error: string };

/** The engine child (engine-child.ts) and its command line. */
export class EngineChild {
  private readonly child: ChildProcess;
  private next = 0;
  private readonly waiting = new Map<number, (a: Answer) => void>();
  private buffer = '';
  private stderr = '';
  readonly exited: Promise<number | null>;

  constructor(config: ChildConfig) {
    // The soak bundles the child once (scripts/soak.ts): a start without tsx's loader is about a second faster.
    const entry = process.env.MODEL_CHILD_BUNDLE ? [process.env.MODEL_CHILD_BUNDLE] : ['--import', 'tsx', 'test/sync/model/harness/engine-child.ts'];
    this.child = spawn(process.execPath, [...entry, JSON.stringify(config)], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d: Buffer) => {
      this.buffer += d.toString();
      const lines = this.buffer.split('\n');
      this.buffer = lines.pop()!;
      for (const line of lines) {
        const a = JSON.parse(line) as { n: number } & Answer;
        this.waiting.get(a.n)?.(a);
        this.waiting.delete(a.n);
      }
    });
    this.child.stderr!.on('data', (d: Buffer) => void (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    this.child.stdin!.on('error', () => undefined);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Sends a command; the promise settles with its answer (or rejects if the child dies first). */
  send(command: ChildCommand): Promise<Answer> {
    const n = this.next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${command.op} within ${ANSWER_TIMEOUT_MS} ms; stderr: ${this.stderr}`)), ANSWER_TIMEOUT_MS);
      this.waiting.set(n, (a) => {
        clearTimeout(timer);
        resolve(a);
      });
      void this.exited.then((code) => {
        if (!this.waiting.has(n)) return;
        this.waiting.delete(n);
        clearTimeout(timer);
        reject(new ChildGone(`the child exited (${code}) before answering ${command.op}; stderr: ${this.stderr}`));
      });
      this.child.stdin!.write(`${JSON.stringify({ ...command, n })}\n`);
    });
  }

  /** The command's value; an app refusal is thrown. */
  async call<T>(command: ChildCommand): Promise<T> {
    const a = await this.send(command);
    if (!a.ok) throw new Error(`${command.op}: ${a.error}`);
    return a.value as T;
  }

  /** SIGKILL, now: no chance to finish anything. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    await this.send({ op: 'stop' }).catch(() => undefined);
    await this.exited;
  }
}

export class ChildGone extends Error {}
