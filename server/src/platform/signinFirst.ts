import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/connect';
import { holdsOnlyConnection, urgently } from '../db/pglite-dialect';
import { Turns } from './turns';

/**
 * Sign-in before bulk work. A sign-in is about 12 ms of argon2 on one core, 3 ms of this thread and a few short
 * statements. Bulk work (an export, an import) keeps cores busy for seconds: its spreadsheet thread runs at a lower
 * priority (spreadsheetThreads.ts), but this thread's share and the database's processes cannot. Two measures keep
 * sign-in within twice its time alone (issue 18; server/bench/contention.ts):
 *
 * - **One bulk request at a time.** A route declared `bulk` (exports and imports, platform/http.ts) waits for the
 *   one under way before it opens its transaction, so that bulk work never takes both cores of a small machine.
 *   The wait is bounded (BULK_QUEUE_MS): a request that holds its turn for longer is overtaken, so nothing waits
 *   on a stuck job. An export whose client reads slowly gives its turn up when it first waits for the client
 *   (`giveUpBulkTurn`): it then costs almost nothing.
 * - **Bulk steps wait for sign-ins.** While a sign-in is under way, bulk work takes its next step (a chunk of rows
 *   fetched or handed to the spreadsheet thread, a batch staged) only when the last sign-in has ended, or after
 *   BULK_WAIT_MS at the longest, so that a stream of sign-ins slows bulk work down but never stops it.
 *
 * On the embedded database a transaction holds the only connection, and everyone else's statements wait for it
 * (db/pglite-dialect.ts). So there the turn is taken before the request's transaction opens (a request waiting for
 * its turn while holding the connection would stop the one whose turn it is); a bulk step inside a transaction
 * does not wait for a sign-in, which is waiting for that transaction to end; and a sign-in waiting for the
 * connection goes before everyone else waiting for it.
 */
export const BULK_WAIT_MS = 50;
export const BULK_QUEUE_MS = 10_000;

let signinsUnderWay = 0;
let waiting: (() => void)[] = [];

/** Runs a sign-in: bulk work waits at its next step until it ends; on the embedded database it goes first. */
export async function signingIn<T>(work: () => Promise<T>): Promise<T> {
  signinsUnderWay++;
  try {
    return await urgently(work);
  } finally {
    signinsUnderWay--;
    if (signinsUnderWay === 0 && waiting.length > 0) {
      const ready = waiting;
      waiting = [];
      for (const resume of ready) resume();
    }
  }
}

/**
 * Resolves at once when no sign-in is under way, or when `db` (the bulk work's) holds the embedded database's only
 * connection: the sign-in waits for it, and waiting here would only keep the sign-in waiting longer. Otherwise
 * resolves when no sign-in is under way, or after BULK_WAIT_MS.
 */
export function bulkStep(db?: Db): Promise<void> {
  if (signinsUnderWay === 0 || (db && holdsOnlyConnection(db))) return Promise.resolve();
  return new Promise((resolve) => {
    const resume = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      waiting = waiting.filter((w) => w !== resume);
      resolve();
    }, BULK_WAIT_MS);
    waiting.push(resume);
  });
}

/** One turn, and an unbounded line (nobody is refused: a waiting request overtakes after BULK_QUEUE_MS). */
const bulkTurns = new Turns(1, Number.POSITIVE_INFINITY, '');
/** How each bulk request under way gives its turn up. */
const turns = new WeakMap<FastifyRequest, () => void>();

/** Runs bulk `work` in its turn (or after waiting BULK_QUEUE_MS for it); `req` can give the turn up early. */
export async function inBulkTurn<T>(req: FastifyRequest, work: () => Promise<T>): Promise<T> {
  const turn = bulkTurns.take();
  // Waited for BULK_QUEUE_MS at most: then the request leaves the line (its `ready` is refused) and overtakes the
  // one whose turn it is, which keeps running; the line goes on after that one.
  const overtake = setTimeout(turn.release, BULK_QUEUE_MS);
  await turn.ready.catch(() => undefined);
  clearTimeout(overtake);
  // Its first step: the transaction opens once no sign-in is under way (on the embedded database a sign-in that
  // came after the transaction opened would wait for all of it).
  await bulkStep();
  turns.set(req, turn.release);
  try {
    return await work();
  } finally {
    turns.delete(req);
    turn.release();
  }
}

/** The bulk request of `req` gives its turn to the next one (it waits for a slow client). */
export function giveUpBulkTurn(req: FastifyRequest): void {
  turns.get(req)?.();
}
