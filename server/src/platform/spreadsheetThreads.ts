import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type MessagePort, Worker } from 'node:worker_threads';
import type { ThreadJob } from './spreadsheetThread';

/**
 * The CPU-heavy part of an export (writing the workbook's XML and deflating it) and of an import (reading the
 * upload's XML, checking its rows, writing COPY lines) runs in a thread of its own at a lower priority
 * (spreadsheetThread.mjs, body in spreadsheetThread.ts), one job at a time per thread, the threads kept for the next
 * jobs. On two cores, work on the main thread
 * delayed every other request, sign-in first (its argon2 waits for a core). The thread touches no database: it only
 * turns rows into bytes and bytes into rows (the embedded database has a thread of its own, db/embeddedDatabase.ts).
 */
const ENTRY = new URL('./spreadsheetThread.mjs', import.meta.url);

/**
 * A thread inherits the nice value of the thread that creates it, and libuv starts its pool (argon2, file reads)
 * on first use: it must not be the lowered spreadsheet thread that starts it. One file operation from the main
 * thread makes sure the pool is running before any spreadsheet thread is.
 */
let poolStarted: Promise<void> | null = null;

/** Messages in arrival order, read one at a time; the thread's failure or end rejects the reader. */
export class Inbox<T> {
  private readonly queue: T[] = [];
  private waiting: { resolve: (m: T) => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;
  private readonly listener = (message: T) => {
    if (this.waiting) {
      this.waiting.resolve(message);
      this.waiting = null;
    } else this.queue.push(message);
  };

  constructor(port: MessagePort | Worker) {
    port.on('message', this.listener);
  }

  next(): Promise<T> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  fail(err: Error): void {
    this.failure ??= err;
    this.waiting?.reject(this.failure);
    this.waiting = null;
  }
}

/** Threads kept for the next job: two, one per core (more jobs at once start more, ended when done). */
const MAX_IDLE = 2;
const idle: SpreadsheetThread<unknown, unknown>[] = [];

export class SpreadsheetThread<In, Out> {
  readonly inbox: Inbox<Out>;
  private ended = false;

  private constructor(private readonly worker: Worker) {
    this.inbox = new Inbox<Out>(worker);
    worker.on('error', (err) => this.inbox.fail(err));
    worker.on('exit', (code) => {
      this.ended = true;
      this.inbox.fail(new Error(`The spreadsheet thread ended before its work was done (exit code ${code})`));
    });
  }

  /** A new thread, once its code is loaded (it says so with its first message). */
  private static async create(): Promise<SpreadsheetThread<unknown, unknown>> {
    poolStarted ??= access(fileURLToPath(ENTRY));
    await poolStarted;
    // Without the server's own flags: an inherited `--import tsx` would start tsx's import hooks (one more thread
    // and engine) in it as well. Its heap is bounded: an import holds at most its shared strings (32 MB of text)
    // besides a batch, and a thread that outgrows it ends with an error that fails its job, not the server.
    const thread = new SpreadsheetThread(
      new Worker(ENTRY, {
        execArgv: [],
        stdout: false,
        stderr: false,
        resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 },
      }),
    );
    await thread.inbox.next();
    return thread;
  }

  /**
   * Starting a thread costs about 0.3 s and 30 MB (a JavaScript engine of its own, then tsx compiling its code): the
   * server starts one when it starts, so that the first export does not wait for it.
   */
  static async warm(): Promise<void> {
    if (idle.length > 0) return;
    const thread = await SpreadsheetThread.create();
    thread.worker.unref();
    idle.push(thread);
  }

  /** Gives `job` to an idle thread, or to a new one. */
  static async start<In, Out>(
    job: ThreadJob,
    transfer: readonly ArrayBuffer[] = [],
  ): Promise<SpreadsheetThread<In, Out>> {
    // An idle thread that ended meanwhile (it ran out of memory or crashed) is dropped, not given the job.
    let kept = idle.pop();
    while (kept?.ended) kept = idle.pop();
    const thread = (kept ?? (await SpreadsheetThread.create())) as SpreadsheetThread<In, Out>;
    // An idle thread does not keep the process alive; one at work does.
    thread.worker.ref();
    thread.worker.postMessage({ job }, [...transfer]);
    return thread;
  }

  post(message: In, transfer: readonly ArrayBuffer[] = []): void {
    this.worker.postMessage(message, [...transfer]);
  }

  /** The job's last answer has arrived: the thread waits for the next job. */
  release(): void {
    if (this.ended || idle.length >= MAX_IDLE) {
      void this.stop();
      return;
    }
    this.worker.unref();
    idle.push(this as SpreadsheetThread<unknown, unknown>);
  }

  /** Ends the thread now: its job is abandoned or failed, so its state is not to be trusted with another. */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}
