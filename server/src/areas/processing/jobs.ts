import {
  type Quarter,
  reportQuarter,
  reportQuarters,
  SUBSCRIPTION_FREQUENCIES,
  subscriptionDue,
  todayIso,
} from '@paydesk/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import { defineJob, type JobDefinition } from '../../platform/jobs';
import { MAIL_DELIVER, Mailer } from '../../platform/mailer';

export const REPORT_JOB = 'processing.report';
export const SUBSCRIPTIONS_JOB = 'processing.subscriptions';

export const reportPayload = z.strictObject({
  userId: z.number().int().positive(),
  yr: z.number().int(),
  qr: z.number().int().min(1).max(4),
  /** The subscription that asked for it; absent for a request from 'How to Export'. */
  frequency: z.enum(SUBSCRIPTION_FREQUENCIES).optional(),
});

/**
 * Builds a quarter report and e-mails it to the user who asked (or subscribed), with the workbook and the PDF
 * attached. One transaction: the outbox row, its attachments and the delivery job commit with the run, so a
 * retried run never mails twice. The mail's delivery is its own job (mail.deliver), with its own retries.
 */
export function processingReportJob(delivery: JobDefinition) {
  return defineJob({
    name: REPORT_JOB,
    payload: reportPayload,
    describe: (p) =>
      `${p.yr} Q${p.qr} for user ${p.userId}${p.frequency ? ` (${p.frequency} subscription)` : ''}`,
    retryLimit: 2,
    retryDelaySeconds: 60,
    retryBackoff: true,
    timeoutSeconds: 300,
    async run(ctx, p) {
      const user = await ctx.db
        .selectFrom('users as u')
        .leftJoin('partners as p', 'p.id', 'u.partner_id')
        .select(['u.email', 'u.active', 'u.partner_id', 'p.account_name'])
        .where('u.id', '=', p.userId)
        .executeTakeFirst();
      if (!user?.active) return 'Not sent: the user is no longer active';
      const quarter = reportQuarter(p.yr, p.qr as Quarter);
      if (!quarter) throw new Error(`${p.yr} Q${p.qr} is not a report quarter (2020 up to last month)`);
      ctx.progress(10, `Building ${quarter.label}`);
      // A partner user's report holds their ISO's figures only, as their dashboard does.
      const scope =
        user.partner_id === null ? null : { isoId: user.partner_id, name: user.account_name ?? '' };
      // Loaded when first used: ECharts, pdfkit and exceljs hold ~70 MB that no other request needs.
      const { buildQuarterReport } = await import('./report');
      const report = await buildQuarterReport(ctx.db, quarter, scope);
      ctx.progress(80, 'Mailing');
      // The mail's delivery job is queued through this run, so it is queued only if the run commits.
      const mailer = new Mailer({
        definition: (name) => (name === MAIL_DELIVER ? delivery : undefined),
        send: (job, payload) => ctx.send(job, payload),
      });
      await mailer.send(ctx.db, {
        to: user.email,
        subject: `Processing report ${quarter.label}`,
        text: [
          `The processing dashboard for ${quarter.label} is attached:`,
          `- processing-${report.name}.xlsx: the figures, one sheet per list;`,
          `- processing-${report.name}.pdf: the dashboard (${report.sections.join('; ')}).`,
          p.frequency
            ? `You receive this ${p.frequency}; cancel it on the How to Export page.`
            : 'You asked for it on the How to Export page.',
        ].join('\n'),
        attachments: [
          { filename: `processing-${report.name}.xlsx`, content: report.workbook },
          { filename: `processing-${report.name}.pdf`, content: report.pdf },
        ],
        sentBy: p.userId,
      });
      return `Mailed ${quarter.label} (${report.sections.length} pages, ${Math.round((report.workbook.length + report.pdf.length) / 1024)} kB)`;
    },
  });
}

/**
 * Every morning (06:00 UTC): on a month's first business day (no weekend, no bank holiday), queues the report
 * of each due subscription (monthly ones every month, quarterly ones when a quarter has just closed), the
 * quarter holding last month. A subscription already sent today is skipped, so a second run the same day sends
 * nothing twice.
 */
export function processingSubscriptionsJob(report: ReturnType<typeof processingReportJob>) {
  return defineJob({
    name: SUBSCRIPTIONS_JOB,
    payload: z.strictObject({ today: z.string().optional() }),
    describe: (p) => (p.today ? `as of ${p.today}` : 'today'),
    retryLimit: 2,
    retryDelaySeconds: 300,
    retryBackoff: false,
    timeoutSeconds: 120,
    schedule: { cron: '0 6 * * *', payload: {} },
    async run(ctx, p) {
      const today = p.today ?? todayIso();
      const { rows: holidays } = await sql<{ day: string }>`
        select day::text as day from holidays where day >= date_trunc('month', ${today}::date)
          and day < date_trunc('month', ${today}::date) + interval '1 month'`.execute(ctx.db);
      const holidaySet = new Set(holidays.map((h) => h.day));
      const [quarter] = reportQuarters(new Date(`${today}T12:00:00Z`));
      if (!quarter) return 'No report quarter yet';
      const subscriptions = await ctx.db
        .selectFrom('report_subscriptions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.id', 's.user_id', 's.frequency'])
        .where('u.active', '=', true)
        .where((eb) =>
          eb.or([
            eb('s.last_sent_at', 'is', null),
            eb('s.last_sent_at', '<', new Date(`${today}T00:00:00Z`)),
          ]),
        )
        .orderBy('s.id')
        .execute();
      const due = subscriptions.filter((s) => subscriptionDue(s.frequency, today, holidaySet));
      for (const s of due) {
        await ctx.send(report, { userId: s.user_id, yr: quarter.yr, qr: quarter.qr, frequency: s.frequency });
        // Stamped on the day it ran for (a run for a given day, as tests make, counts as that day's).
        const sentAt = p.today ? new Date(`${today}T06:00:00Z`) : new Date();
        await ctx.db
          .updateTable('report_subscriptions')
          .set({ last_sent_at: sentAt })
          .where('id', '=', s.id)
          .execute();
      }
      return due.length > 0 ? `Queued ${due.length} reports of ${quarter.label}` : 'Nothing due today';
    },
  });
}
