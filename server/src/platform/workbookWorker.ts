import os from 'node:os';
import { Writable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { type SheetColumn, workbookWriter } from './workbookWriter';

/** What the server sends an export worker (see workbookWorkers.ts). */
export type ToWorker =
  | { kind: 'start'; sheetName: string; columns: SheetColumn[] }
  | { kind: 'rows'; rows: unknown[][] }
  | { kind: 'end' };
/** What an export worker answers: the file's bytes as they are made, then that a batch is written, or the end. */
export type FromWorker =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'written' }
  | { kind: 'done' }
  | { kind: 'failed'; message: string };

const port = parentPort;
if (!port) throw new Error('workbookWorker.ts runs as a worker thread');
const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

// Writing a workbook is the heaviest CPU work a request starts. On Linux the nice value belongs to the thread, so
// this thread yields the CPU to the server's own thread (sign-ins, page calls) whenever both want it.
try {
  os.setPriority(10);
} catch {
  // Not permitted on this platform: the export runs at normal priority, still off the event loop.
}

let current: ReturnType<typeof workbookWriter> | null = null;
port.on('message', async (message: ToWorker) => {
  try {
    if (message.kind === 'start') {
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          // A copy, because zlib's chunks may share their memory with others; the copy is moved, not cloned.
          const bytes = new Uint8Array(chunk);
          send({ kind: 'bytes', bytes }, [bytes.buffer as ArrayBuffer]);
          done();
        },
      });
      current = workbookWriter(stream, message.sheetName, message.columns);
    } else if (message.kind === 'rows') {
      if (!current) throw new Error('rows before start');
      current.addRows(message.rows);
      send({ kind: 'written' });
    } else {
      if (!current) throw new Error('end before start');
      await current.finish();
      current = null;
      send({ kind: 'done' });
    }
  } catch (err) {
    current = null;
    send({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
});
