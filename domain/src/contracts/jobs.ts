import { z } from 'zod';
import { endpoint, timestamp } from '../endpoint';
import { type TableDef, tableEndpoints } from '../table';

/**
 * Background jobs (server/src/platform/jobs.ts, on pg-boss). Each kind the product runs is named here with
 * the title users see; the server declares its payload, handler, retries and timeout.
 */
export const JOB_KINDS = {
  'mail.deliver': 'Deliver an e-mail',
  'demo.catch-up': 'Live demo: catch up',
  'jobs.cleanup': 'Clean up old job progress',
  'partners.import': 'Import partners from the CRM',
  'processing.report': 'E-mail a processing report',
  'processing.subscriptions': 'Send scheduled processing reports',
  'bonus.run': 'Bonus run',
  'bonus.run.w': 'Scheduled weekly bonus run',
  'bonus.run.m': 'Scheduled monthly bonus run',
  'bonus.run.me': 'Scheduled Monthly Extra bonus run',
  'bonus.run.cb': 'Scheduled clawback run',
  'bonus.activation-day': 'Activation tab: rows carried to the new day',
  'bi.iso-info': 'Executive ISO list: figures for the new day',
  'financial.mid-parts': 'Financial filter: MID list parts redrawn',
  'leads.check.datax': 'Lead check: DataX',
  'leads.check.match': 'Lead check: Match',
  'leads.check.tincheck': 'Lead check: TinCheck',
  'leads.check.giact': 'Lead check: Giact',
} as const;
export type JobKind = keyof typeof JOB_KINDS;

/** pg-boss's states, in their order, with what users read. */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const JOB_STATE_LABELS: Record<JobState, string> = {
  created: 'Queued',
  retry: 'Waiting to retry',
  active: 'Running',
  completed: 'Done',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export const jobPaths = {
  query: '/api/app/jobs/query',
  export: '/api/app/jobs/export',
  status: '/api/app/jobs/status',
  rerun: '/api/app/jobs/rerun',
} as const;

/**
 * The Jobs screen: recent runs, newest first. `progress` is "45% — Reading rows" while a job runs, then its last
 * line (the result). Start, attempts and error are hidden at first so the table fits a laptop screen: the
 * screen shows a failed run's error in its progress cell, its tries under its state, and all of a run in its
 * details.
 */
export const jobsTable = {
  columns: [
    { id: 'created', label: 'Queued at', type: 'datetime', filter: 'dateRange', sortable: true },
    {
      id: 'name',
      label: 'Job',
      type: 'text',
      filter: 'select',
      options: Object.keys(JOB_KINDS),
      optionLabels: JOB_KINDS,
      sortable: true,
    },
    {
      id: 'state',
      label: 'State',
      type: 'text',
      filter: 'select',
      options: JOB_STATES,
      optionLabels: JOB_STATE_LABELS,
      sortable: true,
    },
    { id: 'progress', label: 'Progress', type: 'text' },
    { id: 'summary', label: 'Payload', type: 'text' },
    { id: 'started', label: 'Started', type: 'datetime', sortable: true, hidden: true },
    { id: 'seconds', label: 'Duration (s)', type: 'decimal', sortable: true },
    {
      id: 'attempts',
      label: 'Attempts',
      type: 'integer',
      filter: 'range',
      min: 0,
      sortable: true,
      hidden: true,
    },
    { id: 'error', label: 'Error', type: 'text', hidden: true },
    { id: 'id', label: 'Job id', type: 'text', filter: 'text', hidden: true },
  ],
  pageSizes: [25, 50, 100],
  defaultPageSize: 25,
  defaultSort: [{ id: 'created', desc: true }],
} as const satisfies TableDef;
export type JobColumn = (typeof jobsTable.columns)[number]['id'];

const jobId = z.uuid({ error: 'Not a job id' });

export const jobStatusQuery = z.strictObject({ id: jobId });
export const jobStatus = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  state: z.enum(JOB_STATES),
  /** 0–100, null before the job has reported. */
  percent: z.number().nullable(),
  message: z.string().nullable(),
  /** What the job reported when it finished (a line of text), null before. */
  result: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number(),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  completedAt: timestamp.nullable(),
});
export type JobStatus = z.output<typeof jobStatus>;

export const jobRerunBody = z.strictObject({ id: jobId });
export const jobRerunAnswer = z.object({ success: z.literal(true), message: z.string(), id: z.string() });

export const jobEndpoints = {
  table: tableEndpoints('Jobs', { query: jobPaths.query, export: jobPaths.export }, {}),
  status: endpoint({
    method: 'GET',
    path: jobPaths.status,
    summary: 'State and progress of one background job (its starter or an admin)',
    input: jobStatusQuery,
    output: jobStatus,
  }),
  rerun: endpoint({
    method: 'POST',
    path: jobPaths.rerun,
    summary: 'Queues a failed job again with the same payload, as a new run',
    input: jobRerunBody,
    output: jobRerunAnswer,
  }),
};
