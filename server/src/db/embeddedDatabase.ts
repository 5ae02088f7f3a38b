import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * The embedded database (PGlite) in a thread of its own (pgliteThread.mjs). PGlite runs PostgreSQL compiled to
 * WebAssembly on the thread that calls it, and runs each statement to its end: on the server's main thread an
 * export's fetch of 2,000 rows (50–90 ms on two busy cores) or an import's insert stopped every other request for
 * that long, sign-in first (docs/bench.md, issue 18). In its own thread a statement holds back only the requests that
 * wait for the database, and the lock in front of it (db/pglite-dialect.ts) lets a sign-in go before them.
 *
 * Statements still run one at a time, in the order the lock gives them; parameters and rows cross between the
 * threads as structured clones (Date, Uint8Array, bigint and plain objects keep their types).
 */
const ENTRY = new URL('./pgliteThread.mjs', import.meta.url);

export interface EmbeddedResult<R> {
  rows: R[];
  affectedRows?: number;
}

interface Answer {
  id: number;
  rows?: unknown[];
  affectedRows?: number;
  data?: ArrayBuffer;
  error?: { message: string; [field: string]: string | number };
}

/** An error of the database as PGlite raised it: its message and PostgreSQL's fields (`code`, `detail`, …). */
const raised = (error: NonNullable<Answer['error']>): Error => Object.assign(new Error(error.message), error);

/**
 * A parameter as the thread gets it. A view (a Buffer from Node's pool, a batch of a larger buffer) would be cloned
 * with its whole buffer: it crosses as its own bytes.
 */
const exact = (v: unknown) =>
  v instanceof Uint8Array && v.byteLength !== v.buffer.byteLength ? new Uint8Array(v) : v;

export class EmbeddedDatabase {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  private ended: Error | null = null;
  /** Set by the first close(). */
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly worker: Worker,
    onFailure?: (err: Error) => void,
  ) {
    worker.on('message', (answer: Answer) => {
      const waiter = this.pending.get(answer.id);
      if (!waiter) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if (answer.error) waiter.reject(raised(answer.error));
      else waiter.resolve(answer);
    });
    const end = (err: Error) => {
      // Ended by close(), or stopped by a failure (PGlite aborted, out of memory): then every statement from now on
      // fails with this error, and `onFailure` is told once (the server ends: main.ts).
      const failed = this.closing === null && this.ended === null;
      this.ended ??= err;
      for (const waiter of this.pending.values()) waiter.reject(this.ended);
      this.pending.clear();
      if (failed) onFailure?.(err);
    };
    worker.on('error', end);
    worker.on('exit', (code) => end(new Error(`The embedded database's thread ended (exit code ${code})`)));
  }

  /**
   * Opens the database in `dir` (a folder, or 'memory://'), or the tarball `dataDir` (from `dumpDataDir`), once its
   * thread has started it. `onFailure`: the thread stopped by itself.
   */
  static async open(
    dir: string,
    dataDir?: Blob,
    onFailure?: (err: Error) => void,
  ): Promise<EmbeddedDatabase> {
    const data = dataDir ? await dataDir.arrayBuffer() : undefined;
    // Without the server's own flags: an inherited `--import tsx` would load a TypeScript compiler it does not need.
    const worker = new Worker(ENTRY, {
      execArgv: [],
      workerData: { dir, ...(data ? { dataDir: data } : {}) },
      ...(data ? { transferList: [data] } : {}),
    });
    // Its first message says whether PGlite started (the entry answers either way); an error before it (the entry
    // could not be loaded) rejects.
    const [started] = (await once(worker, 'message')) as [{ ready: boolean; error?: Answer['error'] }];
    if (!started.ready) {
      await worker.terminate();
      throw raised(started.error ?? { message: 'The embedded database did not start' });
    }
    worker.unref();
    return new EmbeddedDatabase(worker, onFailure);
  }

  private ask(request: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<Answer> {
    if (this.ended) return Promise.reject(this.ended);
    if (this.closing && request.op !== 'close')
      return Promise.reject(new Error('The embedded database is closed'));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A request under way keeps the process alive, as a statement on the main thread did; an idle database does not.
      this.worker.ref();
      try {
        this.worker.postMessage({ id, ...request }, transfer);
      } catch (err) {
        // A parameter that cannot be cloned (a function, a Proxy): refused here, and nothing left pending.
        this.pending.delete(id);
        if (this.pending.size === 0) this.worker.unref();
        reject(err);
      }
    });
  }

  /** One statement with its parameters (`blob`: the data a COPY … FROM '/dev/blob' reads). */
  async query<R>(
    sql: string,
    params: readonly unknown[] = [],
    blob?: Uint8Array,
  ): Promise<EmbeddedResult<R>> {
    // COPY data is a view of a batch buffer that is reused: a copy of its bytes crosses, transferred.
    const data = blob ? new Uint8Array(blob) : undefined;
    const answer = await this.ask(
      { op: 'query', sql, params: params.map(exact), ...(data ? { blob: data } : {}) },
      data ? [data.buffer] : [],
    );
    return {
      rows: (answer.rows ?? []) as R[],
      ...(answer.affectedRows !== undefined ? { affectedRows: answer.affectedRows } : {}),
    };
  }

  /** Several statements in one parameterless text; the last one's rows. */
  async exec(sql: string): Promise<{ rows: unknown[] }> {
    const answer = await this.ask({ op: 'exec', sql });
    return { rows: answer.rows ?? [] };
  }

  /** The whole database as a tarball (for `open(…, dataDir)`). */
  async dumpDataDir(): Promise<Blob> {
    const answer = await this.ask({ op: 'dump' });
    return new Blob([answer.data ?? new ArrayBuffer(0)]);
  }

  /** Closes the database (written to its folder) and ends its thread; every caller waits for the end. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.ended) await this.ask({ op: 'close' });
      } finally {
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }
}
