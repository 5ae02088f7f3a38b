import { JOB_KINDS, type JobColumn, type JobState, type jobStatus, jobsTable } from '@paydesk/domain';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connect';
import type { Jobs } from '../../platform/jobs';
import type { TableSource } from '../../platform/tableQuery';

/** pg-boss's own queue that turns schedules into jobs: plumbing, not a run users care about. */
const INTERNAL = `name not like '\\_\\_pgboss%'`;
// `state` stays pg-boss's enum, so sorting by it follows a run's course (Queued … Failed), not the spelling.
const JOB_COLUMNS = 'id, name, state, data, output, retry_count, created_on, started_on, completed_on';

/** Every run pg-boss still keeps: live ones in `job`, finished ones moved to `archive` after a day. */
const runs = `(select ${JOB_COLUMNS} from pgboss.job where ${INTERNAL}
  union all select ${JOB_COLUMNS} from pgboss.archive where ${INTERNAL}) j
  left join job_progress p on p.job_id = j.id`;

/** The message of a failure as pg-boss stores it: a serialized Error, or { value } for a plain text. */
const errorText = `coalesce(j.output->>'message', j.output->'value'->>'message', j.output->>'value')`;

export const titleOf = (name: string) => JOB_KINDS[name as keyof typeof JOB_KINDS] ?? name;

/** The Jobs screen's table; the payload summary is made by each job's own `describe`. */
export function jobsSource(jobs: Jobs): TableSource<JobColumn> {
  return {
    def: jobsTable,
    from: runs,
    expressions: {
      created: 'j.created_on',
      name: 'j.name',
      state: 'j.state',
      progress: `case when p.job_id is null then null
        when j.state = 'active' then p.percent || '% — ' || p.message else p.message end`,
      summary: "jsonb_build_object('name', j.name, 'data', j.data)",
      started: 'j.started_on',
      seconds: `round(extract(epoch from (coalesce(j.completed_on,
        case when j.state = 'active' then now() end) - j.started_on))::numeric, 1)`,
      attempts: 'j.retry_count + case when j.started_on is null then 0 else 1 end',
      error: `case when j.state in ('failed', 'retry') then ${errorText} end`,
      id: 'j.id::text',
    },
    searchable: ['id'],
    tiebreak: 'j.id',
    present: {
      name: (value) => titleOf(String(value)),
      summary: (value) => describePayload(jobs, value as { name: string; data: unknown }),
    },
  };
}

function describePayload(jobs: Jobs, value: { name: string; data: unknown }): string {
  const definition = jobs.definition(value.name);
  const payload = (value.data as { payload?: unknown } | null)?.payload;
  if (!definition) return '';
  const parsed = definition.payload.safeParse(payload);
  return parsed.success ? definition.describe(parsed.data) : 'Payload no longer fits this job';
}

interface RunRow {
  id: string;
  name: string;
  state: JobState;
  data: { payload?: unknown; startedBy?: unknown } | null;
  output: Record<string, unknown> | null;
  retry_count: number;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
  percent: number | null;
  message: string | null;
  error: string | null;
}

/** One run by id, with who queued it (for the status call's permission check). */
export async function findRun(
  db: Db,
  id: string,
): Promise<(z.input<typeof jobStatus> & { startedBy: number | null; payload: unknown }) | null> {
  const { rows } = await sql<RunRow>`
    select j.*, p.percent, p.message, ${sql.raw(errorText)} as error
    from ${sql.raw(runs)}
    where j.id = ${id}::uuid`.execute(db);
  const r = rows[0];
  if (!r) return null;
  const result = r.state === 'completed' && typeof r.output?.result === 'string' ? r.output.result : null;
  return {
    id: r.id,
    name: r.name,
    title: titleOf(r.name),
    state: r.state,
    percent: r.percent,
    message: r.message,
    result,
    error: r.state === 'failed' || r.state === 'retry' ? r.error : null,
    attempts: r.retry_count + (r.started_on ? 1 : 0),
    createdAt: r.created_on,
    startedAt: r.started_on,
    completedAt: r.completed_on,
    startedBy: typeof r.data?.startedBy === 'number' ? r.data.startedBy : null,
    payload: r.data?.payload,
  };
}

/** The id of a run of this job that is queued, waiting to retry or working, if there is one. */
export async function unfinishedRun(db: Db, name: string): Promise<string | null> {
  const { rows } = await sql<{ id: string }>`
    select id from pgboss.job where name = ${name} and state in ('created', 'retry', 'active')
    order by created_on limit 1`.execute(db);
  return rows[0]?.id ?? null;
}

/** Progress rows of runs pg-boss no longer keeps. */
export async function deleteOrphanProgress(db: Db): Promise<number> {
  const result = await sql`
    delete from job_progress p
    where p.updated_at < now() - interval '1 day'
      and not exists (select 1 from pgboss.job j where j.id = p.job_id)
      and not exists (select 1 from pgboss.archive a where a.id = p.job_id)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
