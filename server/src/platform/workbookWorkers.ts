import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './workbookWorker';
import type { SheetColumn } from './workbookWriter';

/** Workers kept for the next export once theirs is done (starting one takes about 300 ms). */
const IDLE_WORKERS = 2;
/** A worker's heap is bounded: a streamed workbook needs little, a runaway one is stopped. */
const WORKER_HEAP_MB = 256;
const idle: Worker[] = [];
/** Batches of rows sent ahead of the one being written. */
const IN_FLIGHT = 4;

function spawn(): Worker {
  return new Worker(new URL('./workerBoot.mjs', import.meta.url), {
    workerData: { entry: new URL('./workbookWorker.ts', import.meta.url).href },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 8 },
  });
}

export interface WorkbookInWorker {
  /** Sends rows to be written; waits while IN_FLIGHT batches are still unwritten. */
  write(rows: unknown[][]): Promise<void>;
  /** Finishes the file; every byte has been handed to onBytes when it resolves. */
  end(): Promise<void>;
  /** Gives up: the worker is stopped, not reused. */
  abort(): void;
}

/**
 * A workbook written by a worker thread: the cells' XML and the zip are built off the event loop, at a lower CPU
 * priority than the server's own thread, so an export does not hold up other requests (issue 18: sign-in stays
 * within 2× of its time alone while exports run). One export per worker at a time; finished workers are kept.
 */
export function workbookInWorker(
  sheetName: string,
  columns: readonly SheetColumn[],
  onBytes: (bytes: Buffer) => void,
): WorkbookInWorker {
  const worker = idle.pop() ?? spawn();
  // Held while in use (an export in a short-lived process, such as the bench's, must not end early); an idle one
  // does not keep the process alive.
  worker.ref();
  // Batches sent and not yet written, oldest first. Up to IN_FLIGHT are sent ahead, so the worker writes one while
  // the next is read from the database.
  const waiting: { resolve: () => void; reject: (err: Error) => void }[] = [];
  let failed: Error | null = null;
  const fail = (err: Error) => {
    failed = err;
    for (const w of waiting.splice(0)) w.reject(err);
  };
  const onMessage = (message: FromWorker) => {
    if (message.kind === 'bytes') {
      onBytes(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
    } else if (message.kind === 'failed') {
      fail(new Error(message.message));
    } else {
      waiting.shift()?.resolve();
    }
  };
  const onError = (err: Error) => fail(err);
  const onExit = () => fail(new Error('The export worker stopped'));
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  const detach = () => {
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
  };
  const sent: Promise<void>[] = [];
  /** Sends a message; the promise settles when the worker has handled it. */
  const post = (message: ToWorker) =>
    failed
      ? Promise.reject(failed)
      : new Promise<void>((resolve, reject) => {
          waiting.push({ resolve, reject });
          worker.postMessage(message);
        });
  worker.postMessage({ kind: 'start', sheetName, columns: [...columns] } satisfies ToWorker);
  return {
    async write(rows) {
      if (failed) throw failed;
      const written = post({ kind: 'rows', rows });
      written.catch(() => undefined); // awaited below or by end(); a failure is not left unhandled meanwhile
      sent.push(written);
      while (sent.length > IN_FLIGHT) await sent.shift();
    },
    async end() {
      for (const written of sent.splice(0)) await written;
      await post({ kind: 'end' });
      detach();
      if (idle.length < IDLE_WORKERS) {
        worker.unref();
        idle.push(worker);
      } else {
        void worker.terminate();
      }
    },
    abort() {
      detach();
      fail(new Error('The export was given up'));
      void worker.terminate();
    },
  };
}
