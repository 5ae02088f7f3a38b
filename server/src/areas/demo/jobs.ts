import { z } from 'zod';
import type { Db } from '../../db/connect';
import { catchUpLiveDemo, type LiveDemoReport } from '../../db/seed/live';
import { defineJob } from '../../platform/jobs';

/** Whether the database holds the demo data (the seed's marker): only then is the live demo declared. */
export async function holdsDemoData(db: Db): Promise<boolean> {
  return (await db.selectFrom('demo_state').select('seed').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * The live demo (docs/data.md): every five minutes, and once when the server starts, the demo data is carried
 * on to now with the seed's own generator and rules, so "today" fills through the day and a server started
 * days later catches up the days it missed. One run writes at most MAX_DAYS_PER_RUN days; when more remain it
 * queues the next run in its own transaction.
 */
export const liveDemoJob = defineJob({
  name: 'demo.catch-up',
  payload: z.strictObject({}),
  describe: () => 'Carry the demo data on to now',
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  timeoutSeconds: 600,
  schedule: { cron: '*/5 * * * *', payload: {} },
  run: async (ctx) => {
    const report = await catchUpLiveDemo(ctx.db, new Date(), { progress: ctx.progress });
    if (report.outcome === 'partly') await ctx.send(liveDemoJob, {});
    return summary(report);
  },
});

function summary(r: LiveDemoReport): string {
  if (r.outcome === 'not_demo') return 'Not a demo database: nothing written';
  if (r.outcome === 'up_to_date') return 'Already up to date';
  const parts = [
    `${r.applications} applications`,
    `${r.approvals} approvals`,
    `${r.activityDays} days of activity`,
  ];
  if (r.closures > 0) parts.push(`${r.closures} closures`);
  const more = r.outcome === 'partly' ? '; more to come' : '';
  return `Caught up ${r.days} ${r.days === 1 ? 'day' : 'days'}: ${parts.join(', ')}${more}`;
}
