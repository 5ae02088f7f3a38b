import { lastDueWindow, RUN_KIND_LABELS, RUN_KINDS, type RunKind, todayIso, windowOf } from '@paydesk/domain';
import { z } from 'zod';
import { defineJob, upkeepJob } from '../../platform/jobs';
import { activationRowsOfToday } from './queries';
import { runWindow } from './run';

export const BONUS_RUN_JOB = 'bonus.run';

/**
 * A bonus run (docs/bonus.md): the window holding `date`, or the last one due today. One transaction: the
 * window's rows, the run record and the activity log entry commit together, and a rerun replaces only the rows
 * nobody worked.
 */
export const bonusRunJob = defineJob({
  name: BONUS_RUN_JOB,
  payload: z.strictObject({
    kind: z.enum(RUN_KINDS),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  }),
  describe: (p) => `${RUN_KIND_LABELS[p.kind]}${p.date ? ` for ${p.date}` : ' (last due window)'}`,
  retryLimit: 2,
  retryDelaySeconds: 120,
  retryBackoff: true,
  timeoutSeconds: 600,
  async run(ctx, p) {
    const kind: RunKind = p.kind;
    const window = p.date ? windowOf(kind, p.date) : lastDueWindow(kind, todayIso());
    if (!window) return 'No window due yet';
    ctx.progress(10, `Computing ${window.start} to ${window.end}`);
    const user = ctx.startedBy
      ? await ctx.db
          .selectFrom('users')
          .select(['id', 'email'])
          .where('id', '=', ctx.startedBy)
          .executeTakeFirst()
      : undefined;
    const outcome = await runWindow(ctx.db, window, user ?? null);
    return `${RUN_KIND_LABELS[kind]} ${window.start}..${window.end}: ${outcome.written} rows written ($${outcome.total}), ${outcome.kept} worked rows kept`;
  },
});

/**
 * The schedules (spec §4): weekly on Thursday (the day after a window ends), monthly on the 21st, extra on the
 * 1st (the day after a month ends), clawbacks on the 20th; each at 05:00 UTC, computing the last due window.
 */
export const bonusScheduleJobs = (
  [
    ['W', '0 5 * * 4'],
    ['M', '0 5 21 * *'],
    ['ME', '0 5 1 * *'],
    ['CB', '0 5 20 * *'],
  ] as const
).map(([kind, cron]) =>
  defineJob({
    ...bonusRunJob,
    name: `${BONUS_RUN_JOB}.${kind.toLowerCase()}`,
    describe: () => `Scheduled ${RUN_KIND_LABELS[kind]} run`,
    schedule: { cron, payload: { kind } },
  }),
);

/**
 * Hourly: the Activation tab's kept rows of an earlier day, written again as of today (activationRowsOfToday), so
 * the list is sent as kept soon after the day turns rather than worked out for the day since each time. A no-op when
 * every row is of today or past its deadline.
 */
export const activationDayJob = upkeepJob({
  name: 'bonus.activation-day',
  describe: 'Hourly: the Activation tab’s kept rows for the new day',
  cron: '2 * * * *',
  run: async ({ db }) => {
    const written = await activationRowsOfToday(db);
    return written === 0
      ? 'Every merchant’s Activation row is of today'
      : `Wrote ${written} merchants’ Activation rows as of today`;
  },
});
