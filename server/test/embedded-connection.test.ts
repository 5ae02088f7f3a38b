import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type Connected, connect } from '../src/db/connect';
import { holdsOnlyConnection, Mutex, urgently } from '../src/db/pglite-dialect';
import { bulkStep, signingIn } from '../src/platform/signinFirst';
import { migratedDatabase } from './helpers';

/**
 * The embedded database's one connection (db/pglite-dialect.ts) and sign-in (platform/signinFirst.ts): a sign-in
 * waiting for the connection goes first, and bulk work holding it does not wait for a sign-in that waits for it.
 */

/** A promise and the function that settles it. */
function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}
/** Lets every settled promise's callbacks run (a turn of the event loop; no timer is involved). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the embedded database's lock", () => {
  it('goes to urgent work first, then to everyone else in the order they came', async () => {
    const mutex = new Mutex();
    const order: string[] = [];
    const first = await mutex.lock();
    const waiter = (name: string, urgent: boolean) => {
      const take = () =>
        mutex.lock().then((release) => {
          order.push(name);
          release();
        });
      return urgent ? urgently(take) : take();
    };
    const all = Promise.all([
      waiter('b', false),
      waiter('c', false),
      waiter('sign-in 1', true),
      waiter('d', false),
      waiter('sign-in 2', true),
    ]);
    await settle();
    expect(order).toEqual([]);
    first();
    await all;
    expect(order).toEqual(['sign-in 1', 'sign-in 2', 'b', 'c', 'd']);
  });

  it('is released once, however often its release is called', async () => {
    const mutex = new Mutex();
    const first = await mutex.lock();
    const second: { release?: () => void } = {};
    const third = deferred();
    void mutex.lock().then((release) => {
      second.release = release;
    });
    void mutex.lock().then(() => third.resolve());
    first();
    first();
    await settle();
    expect(second.release).toBeDefined();
    let thirdRan = false;
    void third.promise.then(() => {
      thirdRan = true;
    });
    await settle();
    expect(thirdRan).toBe(false);
    second.release?.();
    await third.promise;
  });
});

describe('a sign-in on the embedded database', () => {
  let embedded: Connected;
  beforeAll(async () => {
    embedded = await connect({ pgliteDir: 'memory://' });
  });
  afterAll(async () => {
    await embedded?.close();
  });

  it('runs before the statements that were waiting for the connection before it', async () => {
    const order: string[] = [];
    const held = deferred();
    const opened = deferred();
    const transaction = embedded.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      opened.resolve();
      await held.promise;
    });
    await opened.promise;
    const dashboard = sql`select 'dashboard'`.execute(embedded.db).then(() => order.push('dashboard'));
    await settle();
    const signin = signingIn(() => sql`select 'sign-in'`.execute(embedded.db)).then(() =>
      order.push('sign-in'),
    );
    await settle();
    held.resolve();
    await Promise.all([transaction, dashboard, signin]);
    expect(order).toEqual(['sign-in', 'dashboard']);
  });
});

describe('bulk work holding the connection', () => {
  let c: Connected;
  const kind = inject('databaseTemplate').kind;
  beforeAll(async () => {
    // The database these tests run on: on PostgreSQL a transaction holds one connection of a pool.
    c = kind === 'pglite' ? await connect({ pgliteDir: 'memory://' }) : await migratedDatabase();
  });
  afterAll(async () => {
    await c?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a transaction of the embedded database only', async () => {
    expect(holdsOnlyConnection(c.db)).toBe(false);
    await c.db.transaction().execute(async (trx) => {
      expect(holdsOnlyConnection(trx)).toBe(kind === 'pglite');
    });
  });

  it('does not wait for a sign-in that waits for it; elsewhere its steps wait', async () => {
    await c.db.transaction().execute(async (trx) => {
      // The clock is the test's (only timers: the database's own work goes on), so the 50 ms bound cannot pass.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const signin = deferred();
      const signingNow = signingIn(() => signin.promise);
      let inTransaction = false;
      let outside = false;
      void bulkStep(trx).then(() => {
        inTransaction = true;
      });
      void bulkStep().then(() => {
        outside = true;
      });
      await settle();
      expect(inTransaction).toBe(kind === 'pglite');
      expect(outside).toBe(false);
      signin.resolve();
      await signingNow;
      await settle();
      expect([inTransaction, outside]).toEqual([true, true]);
    });
  });
});
