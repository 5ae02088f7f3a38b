import { sql } from 'kysely';
import type { Db } from '../src/db/connect';

/** A promise and the functions that settle it: a test decides when work it started may go on. */
export function deferred<T = void>() {
  let resolve: (value: T) => void = () => {};
  let reject: (err: Error) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A transaction on `db` held open until `release()` (on the embedded database it holds the only connection): resolves
 * once the transaction has run a statement. `release()` answers when the transaction has ended.
 */
export async function holdTransaction(db: Db): Promise<{ release: () => Promise<void> }> {
  const held = deferred();
  const opened = deferred();
  const done = db.transaction().execute(async (trx) => {
    await sql`select 1`.execute(trx);
    opened.resolve();
    await held.promise;
  });
  // A transaction that fails to open fails the test instead of leaving it waiting.
  await Promise.race([opened.promise, done]);
  return {
    release: () => {
      held.resolve();
      return done;
    },
  };
}
