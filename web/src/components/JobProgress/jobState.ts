import type { JobState, JobStatus } from '@paydesk/domain';

/** States in which a run may still change: the screens showing it ask again until it leaves them. */
const LIVE: ReadonlySet<JobState> = new Set(['created', 'retry', 'active']);

const isLive = (state: JobState): boolean => LIVE.has(state);

/** Badge colours: in progress in blue shades, waiting in amber, the outcomes in green, grey and red. */
export const STATE_COLORS: Record<JobState, string> = {
  created: 'indigo',
  active: 'blue',
  retry: 'orange',
  completed: 'teal',
  cancelled: 'gray',
  failed: 'red',
};

/** How often the Jobs table asks again while a run on it may still change; false once none can. */
export const TABLE_POLL_MS = 2500;
/** How often one job's status is asked for while it is queued or running. */
export const STATUS_POLL_MS = 1000;

export function tablePollInterval(rows: readonly { state?: unknown }[] | undefined): number | false {
  return rows?.some((row) => LIVE.has(row.state as JobState)) ? TABLE_POLL_MS : false;
}

export function statusPollInterval(status: Pick<JobStatus, 'state'> | undefined): number | false {
  return status && isLive(status.state) ? STATUS_POLL_MS : false;
}

/**
 * A running job's progress as the Jobs table sends it ("45% — Reading rows", see jobsTable in
 * domain/contracts/jobs.ts); null for any other state, whose progress column is only the last line of text.
 */
export function parseProgress(
  state: JobState,
  text: string | null,
): { percent: number; message: string } | null {
  if (state !== 'active' || text === null) return null;
  const match = /^(\d{1,3})% — (.*)$/s.exec(text);
  if (!match) return null;
  return { percent: Math.min(100, Number(match[1])), message: match[2] ?? '' };
}
