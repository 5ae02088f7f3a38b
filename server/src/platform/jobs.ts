import type { JobKind } from '@paydesk/domain';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { z } from 'zod';
import type { Connected, Db } from '../db/connect';

/**
 * Background jobs and schedules on pg-boss, stored in the application's own database (schema `pgboss`, made
 * by pg-boss at start) so the server stays stateless: several instances share the queue, a job is worked by
 * exactly one of them (pg-boss fetches with `for update skip locked`), and a restarted server picks up what
 * was queued. On PostgreSQL pg-boss has a small pool of its own; on the embedded PGlite it goes through the same
 * single-connection lock as Kysely (db/pglite-dialect.ts, pgliteExecuteSql). Either way its statements go through
 * `BossStatements`, so stopping waits for the last of them (see there).
 *
 * A job is declared once with defineJob(): its name, payload schema, handler, retries and timeout. By default
 * the whole run is one transaction and the job is marked complete inside it, so the work and its completion
 * commit together: a job killed midway (a crash, a deploy) leaves nothing half-done and is worked again, and
 * a job pg-boss has already given up on (it ran past its timeout) cannot commit late.
 */

export interface JobContext {
  /** The run's transaction ('one'), or the database for a job that opens its own ('none'). */
  db: Db;
  id: string;
  /** The user who queued the job; null for a schedule or the system. */
  startedBy: number | null;
  /** Which try this is: 1 for the first run, 2 for the first retry… */
  attempt: number;
  /** No retry follows if this try fails: a job that records its own failure (an e-mail) says so now. */
  lastAttempt: boolean;
  /**
   * Reports how far the job is: 0–100 and a line of text, shown on the Jobs screen and to whoever polls the
   * job. Written beside the transaction, so it is visible while the job runs (on PostgreSQL; the embedded
   * database has one connection, which the running job holds). Throws once the job has run past its
   * timeout, which rolls its work back.
   */
  progress(percent: number, message: string): void;
  /** Queues another job; inside a 'one' job it is queued by the same transaction, so only if this one commits. */
  send<P extends z.ZodType>(job: JobDefinition<P>, payload: z.input<P>): Promise<string>;
}

export interface JobDefinition<P extends z.ZodType = z.ZodType> {
  /** A JobKind for the product's jobs (its title is in domain's JOB_KINDS); tests declare their own. */
  name: JobKind | (string & {});
  payload: P;
  /** One line about a payload for the Jobs screen: ids and counts, never a secret or personal data. */
  describe(payload: z.output<P>): string;
  /** Further tries after a failure. */
  retryLimit: number;
  /** Seconds before the first retry; doubled at each further one when `retryBackoff`. */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** Longest one try may run; a try past it is failed (and retried) and its work rolled back. */
  timeoutSeconds: number;
  /**
   * 'one' (default): the run is one transaction, committed together with the job's completion. 'none': the
   * handler opens its own short transactions, for work that waits on another system (an SMTP server) and
   * must not hold the database meanwhile; such a handler must be safe to run again.
   */
  transaction?: 'one' | 'none';
  /** A recurring run: a cron expression (minute resolution), its time zone (default UTC) and payload. */
  schedule?: { cron: string; tz?: string; payload: z.input<P> };
  /** Does the work; answers a line of text for the Jobs screen ("Caught up 2 days"). */
  run(ctx: JobContext, payload: z.output<P>): Promise<string | undefined>;
}

export function defineJob<P extends z.ZodType>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

const NO_PAYLOAD = z.strictObject({});

/**
 * A scheduled upkeep job (the nightly cleanup, the hourly jobs that carry kept figures over to a new day): no
 * payload, one transaction, two retries a minute apart and backing off, five minutes at most.
 */
export function upkeepJob(definition: {
  name: JobKind;
  /** The Jobs screen's line for each run. */
  describe: string;
  cron: string;
  run: (ctx: JobContext) => Promise<string>;
}): JobDefinition<typeof NO_PAYLOAD> {
  return defineJob({
    name: definition.name,
    payload: NO_PAYLOAD,
    describe: () => definition.describe,
    retryLimit: 2,
    retryDelaySeconds: 60,
    retryBackoff: true,
    timeoutSeconds: 300,
    schedule: { cron: definition.cron, payload: {} },
    run: (ctx) => definition.run(ctx),
  });
}

/** What a job row holds in pg-boss: the validated payload and who queued it. */
export interface JobEnvelope {
  payload: unknown;
  startedBy: number | null;
}

interface Log {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface JobsOptions {
  connected: Pick<Connected, 'db' | 'kind' | 'executeSql' | 'databaseUrl'>;
  definitions: readonly JobDefinition[];
  /** Work queued jobs in this process (default true). Off for a process that only queues. */
  work?: boolean;
  /** Store the definitions' schedules and fire them (default true). */
  schedule?: boolean;
  /** How often an idle worker asks for a job (default 2 s; pg-boss's minimum is 0.5 s). */
  pollingIntervalSeconds?: number;
  /**
   * How often schedules are checked (default 30 s; at most 60, since a minute's run is sent only within the
   * minute after its time). Tests check every second.
   */
  cronMonitorIntervalSeconds?: number;
  /** How often a working process expires runs whose process died and archives old ones (default 120 s). */
  maintenanceIntervalSeconds?: number;
  log: Log;
}

const PROGRESS_TEXT_MAX = 200;

/** A pg-boss connection over a Kysely transaction: statements join that transaction. */
export function bossDb(trx: Db): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      const result = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as unknown[] as object[] };
    },
  };
}

export class JobTimeoutError extends Error {}

/** Promises still running, each forgotten as it settles. */
class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  /** Counts `promise` until it settles; answers it unchanged. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.running.add(promise);
    const done = () => this.running.delete(promise);
    promise.then(done, done);
    return promise;
  }

  get size(): number {
    return this.running.size;
  }

  /** Those running now, to wait for (each may fail: its own caller hears of it). */
  get all(): Promise<unknown>[] {
    return [...this.running];
  }
}

/**
 * pg-boss's statements, each counted while it runs. A pg-boss worker stores a finished job's completion without
 * waiting for it (pg-boss 10, manager.js `watch`), and its graceful stop waits only for jobs still running: a job
 * that ends as the server stops has its completion on its way when the stop returns. Stopping waits for these
 * statements too, so the completion is stored before the connection closes (on PGlite, a statement after the
 * close would fail with nothing to catch it; on PostgreSQL pg-boss would drop it, and the job run again later).
 */
class BossStatements {
  readonly running = new InFlight();

  constructor(private readonly execute: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>) {}

  readonly db: PgBoss.Db = {
    executeSql: (text, values) => this.running.track(this.execute(text, values ?? [])),
  };
}

export class Jobs {
  private readonly byName: ReadonlyMap<string, JobDefinition>;
  /** The latest progress of each running job, and the write that is storing it. */
  private readonly latest = new Map<string, { percent: number; message: string }>();
  private readonly writing = new Map<string, Promise<void>>();
  /** The runs of jobs that this process is working now. */
  private readonly working = new InFlight();
  private stopped = false;

  private constructor(
    private readonly boss: PgBoss,
    private readonly statements: BossStatements,
    /** Closes what `statements` run on (pg-boss's own pool on PostgreSQL); after the last has answered. */
    private readonly closeStatements: () => Promise<void>,
    private readonly db: Db,
    definitions: readonly JobDefinition[],
    private readonly log: Log,
  ) {
    this.byName = new Map(definitions.map((d) => [d.name, d]));
  }

  static async start(options: JobsOptions): Promise<Jobs> {
    const { connected, definitions, log } = options;
    const work = options.work ?? true;
    const schedule = options.schedule ?? true;
    const common = {
      schema: 'pgboss',
      migrate: true,
      schedule,
      // Expiry of jobs whose process died, and the archive, are kept by processes that work jobs.
      supervise: work,
      // Completed and failed runs stay on the Jobs screen for two weeks.
      archiveCompletedAfterSeconds: 24 * 3600,
      deleteAfterDays: 14,
      cronWorkerIntervalSeconds: 2,
      cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds ?? 30,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 120,
    };
    let statements: BossStatements;
    let closeStatements = async () => {};
    if (connected.kind === 'pglite') {
      const executeSql = connected.executeSql;
      if (!executeSql) throw new Error('The embedded database gives no raw SQL access for jobs');
      statements = new BossStatements(executeSql);
    } else {
      if (!connected.databaseUrl) throw new Error('Jobs on PostgreSQL need its connection string');
      // As pg-boss would make it for itself, but closed by stop() once its last statement has answered.
      const pool = new pg.Pool({
        connectionString: connected.databaseUrl,
        max: 3,
        application_name: 'pgboss',
      });
      pool.on('error', (err) => log.error({ err }, 'background jobs: connection lost'));
      statements = new BossStatements((text, values) => pool.query(text, values));
      closeStatements = () => pool.end();
    }
    const boss = new PgBoss({ ...common, db: statements.db });
    boss.on('error', (err) => log.error({ err }, 'background jobs: pg-boss error'));
    await boss.start();

    const jobs = new Jobs(boss, statements, closeStatements, connected.db, definitions, log);
    for (const d of definitions) await jobs.declareQueue(d);

    if (work && connected.kind === 'pglite') await jobs.requeueOrphans();
    if (schedule) {
      for (const d of definitions) {
        if (!d.schedule) continue;
        const payload = d.payload.parse(d.schedule.payload);
        await boss.schedule(d.name, d.schedule.cron, { payload, startedBy: null } satisfies JobEnvelope, {
          tz: d.schedule.tz ?? 'UTC',
        });
      }
    }
    if (work) {
      for (const d of definitions) {
        await boss.work<JobEnvelope>(
          d.name,
          {
            batchSize: 1,
            pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
            // The retry count and limit, for JobContext's attempt and lastAttempt.
            includeMetadata: true,
          },
          async ([job]) => (job ? jobs.working.track(jobs.runJob(d, job)) : undefined),
        );
      }
    }
    return jobs;
  }

  /** The definition of a job name, if this server declares it. */
  definition(name: string): JobDefinition | undefined {
    return this.byName.get(name);
  }

  /**
   * Queues a job. Given `db` (a request's or a job's transaction), the job is queued in that transaction: it
   * exists only if the transaction commits, so a rolled-back request never sends its e-mail.
   */
  async send<P extends z.ZodType>(
    job: JobDefinition<P>,
    payload: z.input<P>,
    options: { db?: Db; startedBy?: number | null } = {},
  ): Promise<string> {
    if (!this.byName.has(job.name)) throw new Error(`Job ${job.name} is not declared on this server`);
    const envelope: JobEnvelope = {
      payload: job.payload.parse(payload),
      startedBy: options.startedBy ?? null,
    };
    const id = await this.boss.send(job.name, envelope, options.db ? { db: bossDb(options.db) } : {});
    if (!id) throw new Error(`Job ${job.name} was not queued`);
    return id;
  }

  /** Stops taking jobs and waits (up to `timeoutSeconds`) for running ones; what is left is retried later. */
  async stop(timeoutSeconds = 20): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const deadline = Date.now() + timeoutSeconds * 1000;
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutSeconds * 1000 });
    await this.quiet(deadline);
    await this.closeStatements();
  }

  /**
   * pg-boss's stop waits for the jobs it counts as running, but not for what it set going without waiting: a
   * worker's fetch still in flight (whose job is then run, after stop() has returned) and the completion it sends
   * when a job ends. Each may lead to a further statement, sent in a later tick once the one before has
   * answered. So this waits, round after round, until no statement, run or progress write is left, before
   * anything they use is closed. A run that outlasts the deadline is left to its timeout and retried later.
   */
  private async quiet(deadline: number): Promise<void> {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      });
      const settled = Promise.allSettled([
        ...this.writing.values(),
        ...this.statements.running.all,
        ...this.working.all,
      ]);
      await Promise.race([settled, late]);
      clearTimeout(timer);
      // What those answers set going sends its next statement in their continuations, which run before this.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.statements.running.size === 0 && this.working.size === 0 && this.writing.size === 0) return;
      if (Date.now() >= deadline) {
        this.log.warn({ running: this.working.size }, 'background jobs: stopped with work still running');
        return;
      }
    }
  }

  /** Waits until the progress reported so far is stored (tests). */
  async progressStored(): Promise<void> {
    await Promise.all([...this.writing.values()]);
  }

  private async declareQueue(d: JobDefinition): Promise<void> {
    const queue = {
      name: d.name,
      retryLimit: d.retryLimit,
      retryDelay: d.retryDelaySeconds,
      retryBackoff: d.retryBackoff,
      expireInSeconds: d.timeoutSeconds,
    };
    // Another instance may be declaring the same queue at the same moment.
    if (await this.boss.getQueue(d.name)) await this.boss.updateQueue(d.name, queue);
    else
      await this.boss.createQueue(d.name, queue).catch(async (err) => {
        if (!(await this.boss.getQueue(d.name))) throw err;
      });
  }

  /**
   * The embedded database belongs to one process, so at start a job still marked active was running in a
   * process that died: it is failed now (and so retried) instead of waiting for its timeout.
   */
  private async requeueOrphans(): Promise<void> {
    const { rows } = await sql<{ id: string; name: string }>`
      select id, name from pgboss.job where state = 'active'`.execute(this.db);
    for (const row of rows) {
      await this.boss.fail(row.name, row.id, { message: 'The server stopped while the job ran' });
      this.log.warn({ job: row.id, name: row.name }, 'background job interrupted by a restart: retried');
    }
  }

  private async runJob(
    d: JobDefinition,
    job: PgBoss.JobWithMetadata<JobEnvelope>,
  ): Promise<{ result: string | null }> {
    const deadline = Date.now() + d.timeoutSeconds * 1000;
    const parsed = d.payload.safeParse(job.data?.payload);
    if (!parsed.success) throw new Error(`The job's payload does not fit ${d.name}: ${parsed.error.message}`);
    const startedBy = typeof job.data?.startedBy === 'number' ? job.data.startedBy : null;
    const checkTime = () => {
      if (Date.now() > deadline)
        throw new JobTimeoutError(
          `The job ran past its ${d.timeoutSeconds}-second limit; its work was undone`,
        );
    };
    const context = (db: Db, inTransaction: boolean): JobContext => ({
      db,
      id: job.id,
      startedBy,
      // pg-boss counts retries as it fetches a job that has run before (a failure or a restart).
      attempt: job.retryCount + 1,
      lastAttempt: job.retryCount >= job.retryLimit,
      progress: (percent, message) => {
        checkTime();
        this.report(job.id, percent, message);
      },
      send: (next, payload) => this.send(next, payload, { ...(inTransaction ? { db } : {}), startedBy }),
    });

    this.report(job.id, 0, 'Started');
    let result: string | undefined;
    try {
      if (d.transaction === 'none') {
        result = await d.run(context(this.db, false), parsed.data);
        checkTime();
      } else {
        result = await this.db.transaction().execute(async (trx) => {
          await sql`select set_config('statement_timeout', ${String(d.timeoutSeconds * 1000)}, true)`.execute(
            trx,
          );
          const answer = await d.run(context(trx, true), parsed.data);
          checkTime();
          // pg-boss 10 answers the count its types leave out.
          const done = (await this.boss.complete(
            d.name,
            job.id,
            { result: answer ?? null },
            {
              db: bossDb(trx),
            },
          )) as unknown as { affected: number };
          if (done.affected !== 1)
            throw new JobTimeoutError('The job was taken back before it finished; its work was undone');
          return answer;
        });
      }
    } catch (err) {
      this.report(job.id, 100, 'Failed');
      await this.writing.get(job.id);
      throw err;
    }
    this.report(job.id, 100, result ?? 'Done');
    await this.writing.get(job.id);
    return { result: result ?? null };
  }

  /** Keeps the latest progress and stores it beside the job's transaction, one write at a time per job. */
  private report(id: string, percent: number, message: string): void {
    const value = {
      percent: Math.max(0, Math.min(100, Math.round(Number.isFinite(percent) ? percent : 0))),
      message: message.slice(0, PROGRESS_TEXT_MAX),
    };
    this.latest.set(id, value);
    if (this.writing.has(id)) return;
    const write = (async () => {
      try {
        for (;;) {
          const next = this.latest.get(id);
          if (!next) break;
          this.latest.delete(id);
          await this.db
            .insertInto('job_progress')
            .values({ job_id: id, percent: next.percent, message: next.message })
            .onConflict((oc) =>
              oc
                .column('job_id')
                .doUpdateSet({ percent: next.percent, message: next.message, updated_at: new Date() }),
            )
            .execute();
        }
      } catch (err) {
        this.log.warn({ err, job: id }, 'job progress not stored');
      } finally {
        this.writing.delete(id);
      }
    })();
    this.writing.set(id, write);
  }
}
