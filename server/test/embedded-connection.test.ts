import { CompiledQuery, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type Connected, connect } from '../src/db/connect';
import { holdsOnlyConnection, Mutex, urgently } from '../src/db/pglite-dialect';
import { bulkStep, signingIn } from '../src/platform/signinFirst';
import { deferred, holdTransaction } from './deferred';
import { migratedDatabase } from './helpers';

/**
 * The embedded database's one connection (db/pglite-dialect.ts) and sign-in (platform/signinFirst.ts): a sign-in
 * waiting for the connection goes first, and bulk work holding it does not wait for a sign-in that waits for it.
 */

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
    const transaction = await holdTransaction(embedded.db);
    const dashboard = sql`select 'dashboard'`.execute(embedded.db).then(() => order.push('dashboard'));
    await settle();
    const signin = signingIn(() => sql`select 'sign-in'`.execute(embedded.db)).then(() =>
      order.push('sign-in'),
    );
    await settle();
    await Promise.all([transaction.release(), dashboard, signin]);
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

describe("the embedded database's thread", () => {
  let embedded: Connected;
  beforeAll(async () => {
    embedded = await connect({ pgliteDir: 'memory://' });
    await sql`create table thread_probe (id int primary key, note text, at date, amount int8, data bytea)`.execute(
      embedded.db,
    );
  });
  afterAll(async () => {
    await embedded?.close();
  });

  it('leaves the server thread free while a long statement runs', async () => {
    // On the server's thread a statement runs to its end before anything else runs there: the turns below would
    // only come before and after it. In its own thread, they go on while it runs.
    let turns = 0;
    let done = false;
    const statement = sql<{
      n: number;
    }>`select count(*) as n from generate_series(1, 3000000) g where g % 7 = 0`
      .execute(embedded.db)
      .finally(() => {
        done = true;
      });
    const spin = async () => {
      while (!done) {
        turns++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all([statement, spin()]);
    expect((await statement).rows[0]?.n).toBe(428571);
    expect(turns).toBeGreaterThan(100);
  });

  it('gives back values, errors and the data folder as PGlite gave them', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    // A Buffer from Node's pool is a view of a larger buffer: only its own bytes are stored.
    const pooled = Buffer.from('abc');
    await sql`insert into thread_probe values (1, 'first', '2026-11-27', 9007199254740991, ${bytes}),
      (2, 'second', null, null, ${pooled})`.execute(embedded.db);
    const { rows } = await sql<{
      id: number;
      note: string;
      at: string | null;
      amount: number | null;
      data: Uint8Array;
    }>`
      select * from thread_probe order by id`.execute(embedded.db);
    expect(rows.map((r) => ({ ...r, data: [...r.data] }))).toEqual([
      { id: 1, note: 'first', at: '2026-11-27', amount: 9007199254740991, data: [0, 1, 2, 250, 255] },
      { id: 2, note: 'second', at: null, amount: null, data: [97, 98, 99] },
    ]);
    // PostgreSQL's fields of an error reach the server (app.ts reads `code`).
    const duplicate = await sql`insert into thread_probe (id) values (1)`
      .execute(embedded.db)
      .catch((e) => e);
    expect(duplicate).toBeInstanceOf(Error);
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'thread_probe_pkey' });
    // A failed statement leaves the connection usable, and a dump opens as the same database.
    const dump = await embedded.dumpDataDir?.();
    if (!dump) throw new Error('no dump');
    const copy = await connect({ pgliteDir: 'memory://', pgliteDataDir: dump });
    try {
      const { rows: again } = await sql<{ n: number }>`select count(*) as n from thread_probe`.execute(
        copy.db,
      );
      expect(again[0]?.n).toBe(2);
    } finally {
      await copy.close();
    }
  });

  it('refuses statements once closed, with an error rather than a hang', async () => {
    const other = await connect({ pgliteDir: 'memory://' });
    // A parameter that cannot cross to the thread is refused, and the database goes on.
    const notData = () => 1;
    await expect(other.db.executeQuery(CompiledQuery.raw('select $1 as x', [notData]))).rejects.toThrow(
      /could not be cloned/,
    );
    expect((await sql<{ x: number }>`select 1 as x`.execute(other.db)).rows).toEqual([{ x: 1 }]);
    // Closed twice at once: both wait for the end.
    await Promise.all([other.close(), other.close()]);
    await expect(sql`select 1`.execute(other.db)).rejects.toThrow();
  });
});
