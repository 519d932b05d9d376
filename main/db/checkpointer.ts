import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type Db, nativeBinding } from './open.js';

/**
 * WAL checkpoints off the edit path. SQLite's automatic checkpoint runs inside the commit that
 * crosses the threshold (1000 pages), so every few hundred edits one "save" would also copy the
 * WAL into the database file and fsync it: milliseconds, on the UI's call. Instead a worker thread
 * with its own connection runs a PASSIVE checkpoint every `everyMs` (it never blocks the writer),
 * and the automatic threshold of the app's connection is raised to a safety net (`safetyPages`)
 * that only matters if the worker cannot keep up or is gone.
 */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) });
db.pragma('busy_timeout = 50');
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: next time */ } };
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('stopped');
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(db: Db, options: { everyMs?: number; safetyPages?: number } = {}): Checkpointer | null {
  if (db.memory || db.name === '') return null;
  let worker: Worker;
  try {
    worker = new Worker(WORKER, {
      eval: true,
      // The worker loads the same compiled module as the app's connection (Electron's build in Electron).
      workerData: {
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        nativeBinding: nativeBinding(),
        file: db.name,
        everyMs: options.everyMs ?? 1000,
      },
    });
  } catch {
    return null;
  }
  worker.unref();
  worker.on('error', () => db.pragma('wal_autocheckpoint = 1000'));
  // A worker that already ended (it could not open the database) has no exit left to wait for.
  let exited = false;
  worker.once('exit', () => (exited = true));
  db.pragma(`wal_autocheckpoint = ${options.safetyPages ?? 20_000}`);
  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        const done = () => {
          db.pragma('wal_autocheckpoint = 1000');
          resolve();
        };
        if (exited) return done();
        worker.once('exit', done);
        worker.once('message', () => void worker.terminate());
        worker.postMessage('stop');
        // A worker that does not answer is ended.
        setTimeout(() => void worker.terminate(), 2000).unref();
      });
      return stopped;
    },
  };
}
