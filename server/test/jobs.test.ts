import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../src/config';
import { type Connected, connect, type Db } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { jobDefinitions, jobDefinitionsFor, liveDemoJob } from '../src/jobs';
import { defineJob, type Jobs } from '../src/platform/jobs';
import { installJobSchema } from './databases';
import { createJobRowsTable, rowsJob } from './fixtures/testJobs';
import { Client, startTestJobs, type TestApp, testApp } from './helpers';

const testConfig = loadConfig({ LOG_LEVEL: 'silent' });
const here = path.dirname(fileURLToPath(import.meta.url));
const onPostgres = inject('databaseTemplate').kind === 'postgres';

/** Polls until `check` answers a value (not undefined), or fails after `seconds`; never a fixed sleep. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, seconds = 60): Promise<T> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Run {
  id: string;
  name: string;
  state: string;
  retry_count: number;
  output: Record<string, unknown> | null;
}

/** A run as pg-boss stores it, wherever it is (live or archived). */
async function run(db: Db, id: string): Promise<Run | undefined> {
  const { rows } = await sql<Run>`
    select id, name, state::text as state, retry_count, output from pgboss.job where id = ${id}::uuid
    union all
    select id, name, state::text, retry_count, output from pgboss.archive where id = ${id}::uuid`.execute(db);
  return rows[0];
}

const finished = (db: Db, id: string) =>
  eventually(`job ${id} to finish`, async () => {
    const r = await run(db, id);
    return r && ['completed', 'failed'].includes(r.state) ? r : undefined;
  });

async function rowsOf(db: Db, id: string) {
  const { rows } = await sql<{ n: number; instance: string }>`
    select n, instance from job_test_rows where job_id = ${id}::uuid order by n`.execute(db);
  return rows;
}

describe('a job on this database', () => {
  let t: TestApp;
  /** Row gates: a test holds a job after a given row until it lets go. */
  const gates = new Map<string, () => void>();
  let holdAt: number | null = null;
  let failOnceAt: number | null = null;
  let failAlways = false;
  beforeAll(async () => {
    const afterRow = async (jobId: string, n: number) => {
      if (failAlways) throw new Error('Lost the connection to the card network');
      if (failOnceAt === n) {
        failOnceAt = null;
        throw new Error('Lost the connection to the card network');
      }
      if (holdAt === n) await new Promise<void>((resolve) => gates.set(jobId, resolve));
    };
    t = await testApp({
      jobs: {
        work: true,
        definitions: [...jobDefinitions(testConfig), rowsJob({ instance: 'a', afterRow })],
      },
    });
    await createJobRowsTable(t.db);
  });
  afterAll(async () => {
    for (const release of gates.values()) release();
    await t?.close();
  });

  const rowsDef = () => t.jobs.definition('test.rows') as ReturnType<typeof rowsJob>;

  it('runs once, reports its progress, and its starter reads its status and result', async () => {
    const admin = new Client(t.app);
    await admin.signin('admin@paydesk.local');
    const me = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@paydesk.local')
      .executeTakeFirstOrThrow();
    const id = await t.jobs.send(rowsDef(), { rows: 4 }, { startedBy: me.id });
    const done = await finished(t.db, id);
    expect(done.state).toBe('completed');
    expect((await rowsOf(t.db, id)).map((r) => r.n)).toEqual([1, 2, 3, 4]);

    await t.jobs.progressStored();
    const status = await admin.get(`/api/app/jobs/status?id=${id}`);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({
      id,
      state: 'completed',
      percent: 100,
      result: 'Wrote 4 rows',
      error: null,
      attempts: 1,
    });

    // Someone who did not start it, and is not an admin, learns nothing of it.
    const sales = new Client(t.app);
    await sales.signin('sales@paydesk.local');
    expect((await sales.get(`/api/app/jobs/status?id=${id}`)).statusCode).toBe(404);
    expect((await sales.post('/api/app/jobs/query', {})).statusCode).toBe(403);
  });

  it.runIf(onPostgres)(
    'shows its progress while it runs (PostgreSQL: the embedded database is one connection)',
    async () => {
      holdAt = 2;
      const id = await t.jobs.send(rowsDef(), { rows: 4 });
      const progress = await eventually('progress at row 2', async () => {
        const p = await t.db
          .selectFrom('job_progress')
          .selectAll()
          .where('job_id', '=', id)
          .executeTakeFirst();
        return p?.percent === 50 ? p : undefined;
      });
      expect(progress.message).toBe('Row 2 of 4');
      // Nothing it wrote is visible before it commits.
      expect(await rowsOf(t.db, id)).toEqual([]);
      holdAt = null;
      gates.get(id)?.();
      expect((await finished(t.db, id)).state).toBe('completed');
      expect(await rowsOf(t.db, id)).toHaveLength(4);
    },
  );

  it('a try that fails midway leaves no rows, and the retry writes every row once', async () => {
    failOnceAt = 3;
    const id = await t.jobs.send(rowsDef(), { rows: 5 });
    const done = await finished(t.db, id);
    expect(done.state).toBe('completed');
    expect(done.retry_count).toBe(1);
    expect((await rowsOf(t.db, id)).map((r) => r.n)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a try that runs past its timeout is undone', async () => {
    const overrun = defineJob({
      name: 'test.overrun',
      payload: z.strictObject({}),
      describe: () => '',
      retryLimit: 0,
      retryDelaySeconds: 0,
      retryBackoff: false,
      timeoutSeconds: 1,
      run: async (ctx) => {
        await sql`insert into job_test_rows (job_id, n, instance) values (${ctx.id}::uuid, 1, 'overrun')`.execute(
          ctx.db,
        );
        await new Promise((r) => setTimeout(r, 1500));
        ctx.progress(50, 'Still going');
        return 'never';
      },
    });
    const jobs = await startTestJobs(t.connected, { work: true, definitions: [overrun] });
    try {
      const id = await jobs.send(overrun, {});
      const done = await finished(t.db, id);
      expect(done.state).toBe('failed');
      expect(await rowsOf(t.db, id)).toEqual([]);
    } finally {
      await jobs.stop();
    }
  });

  it('a job queued in a transaction that rolls back never exists', async () => {
    let id: string | null = null;
    await expect(
      t.db.transaction().execute(async (trx) => {
        id = await t.jobs.send(rowsDef(), { rows: 1 }, { db: trx });
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');
    expect(id).not.toBeNull();
    expect(await run(t.db, id as unknown as string)).toBeUndefined();
  });

  it('refuses a payload that does not fit the job', async () => {
    await expect(t.jobs.send(rowsDef(), { rows: 0 })).rejects.toThrow();
    await expect(t.jobs.send(rowsDef(), { rows: 2, extra: 1 } as never)).rejects.toThrow();
  });

  it('the Jobs table lists runs with state, attempts, error and payload summary; a failed run can be run again', async () => {
    failAlways = true;
    const failedId = await t.jobs.send(rowsDef(), { rows: 2 });
    const failed = await finished(t.db, failedId);
    failAlways = false;
    expect(failed.state).toBe('failed');
    expect(await rowsOf(t.db, failedId)).toEqual([]);

    const admin = new Client(t.app);
    await admin.signin('admin@paydesk.local');
    const page = await admin.post('/api/app/jobs/query', {
      filters: [{ id: 'state', kind: 'select', values: ['failed'] }],
    });
    expect(page.statusCode, page.body).toBe(200);
    const rows = page.json().rows as Record<string, unknown>[];
    expect(rows.every((r) => r.state === 'failed')).toBe(true);
    expect(rows.find((r) => r.id === failedId)).toMatchObject({
      name: 'test.rows',
      state: 'failed',
      summary: '2 rows',
      error: 'Lost the connection to the card network',
      // The first try and its two retries.
      attempts: 3,
      progress: 'Failed',
    });

    const notFailed = await t.jobs.send(rowsDef(), { rows: 1 });
    await finished(t.db, notFailed);
    const refused = await admin.post('/api/app/jobs/rerun', { id: notFailed });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Only a failed job can be run again');

    const again = await admin.post('/api/app/jobs/rerun', { id: failedId });
    expect(again.statusCode, again.body).toBe(200);
    const newId = again.json().id as string;
    expect(newId).not.toBe(failedId);
    expect((await finished(t.db, newId)).state).toBe('completed');
    expect(await rowsOf(t.db, newId)).toHaveLength(2);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'job.rerun')
      .execute();
    expect(audit.at(-1)?.details).toMatchObject({ failedJob: failedId, newJob: newId });

    const sales = new Client(t.app);
    await sales.signin('sales@paydesk.local');
    expect((await sales.post('/api/app/jobs/rerun', { id: failedId })).statusCode).toBe(403);
    expect((await admin.post('/api/app/jobs/rerun', { id: 'not-a-uuid' })).statusCode).toBe(400);
  });

  it('a schedule fires on its own', async () => {
    let fired = 0;
    const everyMinute = defineJob({
      name: 'test.scheduled',
      payload: z.strictObject({ note: z.string() }),
      describe: (p) => p.note,
      retryLimit: 0,
      retryDelaySeconds: 0,
      retryBackoff: false,
      timeoutSeconds: 5,
      schedule: { cron: '* * * * *', payload: { note: 'every minute' } },
      run: async () => {
        fired++;
        return 'ran';
      },
    });
    const jobs = await startTestJobs(t.connected, { work: true, schedule: true, definitions: [everyMinute] });
    try {
      const id = await eventually('the scheduled run', async () => {
        const { rows } = await sql<{ id: string }>`
          select id from pgboss.job where name = 'test.scheduled' and state = 'completed'
          union all select id from pgboss.archive where name = 'test.scheduled'`.execute(t.db);
        return rows[0]?.id;
      });
      expect(fired).toBeGreaterThanOrEqual(1);
      const r = await run(t.db, id);
      expect(r?.output).toEqual({ result: 'ran' });
    } finally {
      await jobs.stop();
      await sql`select pgboss.delete_queue('test.scheduled')`.execute(t.db).catch(() => undefined);
    }
  });

  /** A job with an empty payload, tried once (no retry), for the stop() tests below. */
  const onceJob = (name: string, run: () => Promise<string>) =>
    defineJob({
      name,
      payload: z.strictObject({}),
      describe: () => '',
      retryLimit: 0,
      retryDelaySeconds: 0,
      retryBackoff: false,
      timeoutSeconds: 30,
      run,
    });

  // pg-boss stores a finished job's completion without waiting for it, and its stop waits only for running jobs.
  // A slow completion shows whether stop() waits for it: the embedded database is closed right after stop(), and
  // a statement sent after that fails with nothing to catch it. (On PostgreSQL the statements go to a pool that
  // stop() ends, which waits for them as well.)
  it.skipIf(onPostgres)(
    'stop() returns once the completion of a job that ended meanwhile is stored',
    async () => {
      const execute = t.connected.executeSql;
      if (!execute) throw new Error('PGlite gives raw SQL access');
      let pending = 0;
      let completions = 0;
      const slowCompletions = {
        ...t.connected,
        executeSql: async (text: string, values?: readonly unknown[]) => {
          pending++;
          try {
            // pg-boss's completion (plans.js completeJobs) stamps completed_on.
            if (/completed_on = now\(\)/.test(text)) {
              completions++;
              await new Promise((r) => setTimeout(r, 1500));
            }
            return await execute(text, values);
          } finally {
            pending--;
          }
        },
      };
      let release = () => {};
      let started = false;
      const gated = onceJob('test.ends-while-stopping', async () => {
        started = true;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return 'ended';
      });
      const jobs = await startTestJobs(slowCompletions, { work: true, definitions: [gated] });
      try {
        const id = await jobs.send(gated, {});
        await eventually('the job to start', async () => (started ? true : undefined));
        const stopping = jobs.stop();
        release();
        await stopping;
        expect(completions, 'pg-boss sent the completion').toBeGreaterThanOrEqual(1);
        expect(pending, 'statements still running when stop() returned').toBe(0);
        expect((await run(t.db, id))?.state).toBe('completed');
      } finally {
        await jobs.stop();
        await sql`select pgboss.delete_queue('test.ends-while-stopping')`
          .execute(t.db)
          .catch(() => undefined);
      }
    },
  );

  // A worker's fetch may be in flight when stop() is called; pg-boss's stop does not wait for it, and the job it
  // answers is then run and completed by statements sent after stop() has returned, onto a closed database. The
  // fetch is held back here until stop() has begun, and answers the job sent meanwhile.
  it.skipIf(onPostgres)(
    'stop() runs and completes a job whose fetch was in flight, before it returns',
    async () => {
      const execute = t.connected.executeSql;
      if (!execute) throw new Error('PGlite gives raw SQL access');
      let holdFetch = false;
      let fetchHeld = false;
      let stopReturned = false;
      let afterStop = 0;
      const heldFetches = {
        ...t.connected,
        executeSql: async (text: string, values?: readonly unknown[]) => {
          if (stopReturned) afterStop++;
          // pg-boss's fetch (plans.js fetchNextJob) takes the next job and stamps started_on.
          if (holdFetch && /started_on = now\(\)/.test(text)) {
            holdFetch = false;
            fetchHeld = true;
            await new Promise((r) => setTimeout(r, 1500));
          }
          return execute(text, values);
        },
      };
      let ran = false;
      const job = onceJob('test.fetched-while-stopping', async () => {
        ran = true;
        return 'ran';
      });
      const jobs = await startTestJobs(heldFetches, { work: true, definitions: [job] });
      try {
        holdFetch = true;
        await eventually('a fetch to be held', async () => (fetchHeld ? true : undefined));
        const id = await jobs.send(job, {});
        await jobs.stop();
        stopReturned = true;
        expect(ran, 'the fetched job ran before stop() returned').toBe(true);
        expect((await run(t.db, id))?.state).toBe('completed');
        await new Promise((r) => setTimeout(r, 1000));
        expect(afterStop, 'statements sent after stop() returned').toBe(0);
      } finally {
        stopReturned = false;
        await jobs.stop();
        await sql`select pgboss.delete_queue('test.fetched-while-stopping')`
          .execute(t.db)
          .catch(() => undefined);
      }
    },
  );
});

describe('the live demo as a job', () => {
  it('is declared on the demo database only, and carries the data on to now', async () => {
    const t = await testApp();
    const empty = await (await import('./helpers')).migratedDatabase();
    try {
      expect((await jobDefinitionsFor(empty.db, testConfig)).map((d) => d.name)).not.toContain(
        'demo.catch-up',
      );
      const definitions = await jobDefinitionsFor(t.db, testConfig);
      expect(definitions).toContain(liveDemoJob);
      const jobs = await startTestJobs(t.connected, { work: true, definitions });
      try {
        const before = Date.now();
        const id = await jobs.send(liveDemoJob, {});
        const done = await finished(t.db, id);
        expect(done.state).toBe('completed');
        expect(String(done.output?.result)).toMatch(/^(Caught up \d+ days?|Already up to date)/);
        const state = await t.db.selectFrom('demo_state').select('caught_up_to').executeTakeFirstOrThrow();
        expect(new Date(state.caught_up_to).getTime()).toBeGreaterThanOrEqual(before);
      } finally {
        await jobs.stop();
      }
    } finally {
      await empty.close();
      await t.close();
    }
  });
});

describe('a server killed while a job runs', () => {
  let c: Connected;
  let cleanup: () => Promise<void>;
  let child: ChildProcess | null = null;
  let pgliteDir: string | null = null;

  beforeAll(async () => {
    if (onPostgres) {
      const { migratedDatabase } = await import('./helpers');
      c = await migratedDatabase();
      cleanup = () => c.close();
    } else {
      // The embedded database lives in a folder that one process at a time opens, as in production.
      pgliteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paydesk-jobs-'));
      c = await connect({ pgliteDir });
      await migrateToLatest(c.db);
      await installJobSchema(c);
      cleanup = async () => {
        await fs.rm(pgliteDir as string, { recursive: true, force: true });
      };
    }
    await createJobRowsTable(c.db);
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await cleanup?.();
  });

  it('leaves nothing half-done, and a restarted server works the job again, once', async () => {
    // A process that only queues: the job waits for a worker.
    const queuer = await startTestJobs(c, { definitions: [rowsJob({ instance: 'none' })] });
    const id = await queuer.send(queuer.definition('test.rows') as ReturnType<typeof rowsJob>, { rows: 6 });
    await queuer.stop();
    if (!onPostgres) await c.close();

    child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'fixtures/jobWorker.ts'), pgliteDir ?? ''],
      {
        env: { ...process.env, ...(onPostgres ? { DATABASE_URL: c.databaseUrl } : {}) },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const halfway = await new Promise<string>((resolve, reject) => {
      let out = '';
      child?.stdout?.on('data', (d: Buffer) => {
        out += String(d);
        const m = /HALFWAY (\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child?.once('exit', (code) => reject(new Error(`the worker exited early (${code})`)));
    });
    expect(halfway).toBe(id);
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    child = null;

    if (!onPostgres) c = await connect({ pgliteDir: pgliteDir as string });
    // Three rows were written before the kill; none survive it.
    expect(await rowsOf(c.db, id)).toEqual([]);
    expect((await run(c.db, id))?.state).toBe('active');

    // The restarted server: on PGlite it knows at once the run is orphaned; on PostgreSQL the run expires.
    const restarted = await startTestJobs(c, {
      work: true,
      definitions: [rowsJob({ instance: 'restarted' })],
    });
    try {
      const done = await finished(c.db, id);
      expect(done.state).toBe('completed');
      const rows = await rowsOf(c.db, id);
      expect(rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(new Set(rows.map((r) => r.instance))).toEqual(new Set(['restarted']));
    } finally {
      await restarted.stop();
      if (!onPostgres) await c.close();
    }
  });
});

describe.runIf(onPostgres)('two server instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  let second: Connected;
  let jobsA: Jobs;
  let jobsB: Jobs;
  const fired = { a: 0, b: 0 };
  let scheduledFrom = 0;

  const scheduled = (instance: 'a' | 'b') =>
    defineJob({
      name: 'test.scheduled-twice',
      payload: z.strictObject({}),
      describe: () => '',
      retryLimit: 0,
      retryDelaySeconds: 0,
      retryBackoff: false,
      timeoutSeconds: 5,
      schedule: { cron: '* * * * *', payload: {} },
      run: async () => {
        fired[instance]++;
        return instance;
      },
    });

  beforeAll(async () => {
    scheduledFrom = Date.now();
    a = await testApp({
      jobs: { work: true, schedule: true, definitions: [rowsJob({ instance: 'a' }), scheduled('a')] },
    });
    // The second instance: its own connections, its own app and workers, the same database.
    second = await connect({ databaseUrl: a.connected.databaseUrl });
    b = await testApp({
      connected: second,
      jobs: { work: true, schedule: true, definitions: [rowsJob({ instance: 'b' }), scheduled('b')] },
    });
    jobsA = a.jobs;
    jobsB = b.jobs;
    await createJobRowsTable(a.db);
  });
  afterAll(async () => {
    await b?.close();
    await second?.close();
    await a?.close();
  });

  it('a session made on one instance works on the other', async () => {
    const client = new Client(a.app);
    await client.signin('admin@paydesk.local');
    const onB = new Client(b.app);
    onB.cookies = client.cookies;
    const res = await onB.post('/api/app/account/session');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ signedIn: true, user: { email: 'admin@paydesk.local' } });
    // Signed out on the second instance, the session is gone on the first too.
    expect((await onB.post('/api/app/account/signout')).statusCode).toBe(200);
    expect((await client.post('/api/app/account/session')).json()).toMatchObject({ signedIn: false });
  });

  it('each job is worked exactly once, by one instance or the other', async () => {
    const def = jobsA.definition('test.rows') as ReturnType<typeof rowsJob>;
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? jobsA : jobsB).send(def, { rows: 3 })),
    );
    for (const id of ids) expect((await finished(a.db, id)).state).toBe('completed');
    for (const id of ids) {
      const rows = await rowsOf(a.db, id);
      expect(rows.map((r) => r.n)).toEqual([1, 2, 3]);
      expect(new Set(rows.map((r) => r.instance)).size).toBe(1);
    }
  });

  it('a scheduled run is worked once, not once per instance', async () => {
    const first = await eventually('the scheduled run', async () => {
      const { rows } = await sql<{ created_on: Date }>`
        select created_on from pgboss.job where name = 'test.scheduled-twice' and state = 'completed'
        union all select created_on from pgboss.archive where name = 'test.scheduled-twice'`.execute(a.db);
      return rows[0];
    });
    // Both instances check the schedules every second; give them several chances to send it again.
    await new Promise((r) => setTimeout(r, 4000));
    // One run per minute of the schedule: no more runs than minutes the schedule has been live in. (Grouping
    // the runs by the minute they were stamped is no oracle: the worker stamps a run when it takes the
    // minute's send from the queue, a few seconds later, so a run sent at 10:30:59 and the 10:31 run can
    // both be stamped 10:31.) Were each instance to send its own, every minute would have two.
    const { rows } = await sql<{ created_on: Date }>`
      select created_on from pgboss.job where name = 'test.scheduled-twice'
      union all select created_on from pgboss.archive where name = 'test.scheduled-twice'`.execute(a.db);
    const minutesLive = Math.floor(Date.now() / 60_000) - Math.floor(scheduledFrom / 60_000) + 1;
    expect(first).toBeDefined();
    expect(rows.length, `runs in ${minutesLive} minute(s) of the schedule`).toBeLessThanOrEqual(minutesLive);
    expect(fired.a + fired.b).toBe(rows.length);
  });
});
