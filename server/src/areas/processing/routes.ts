import { hasPermission, processingEndpoints, type Quarter, reportQuarter } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import { type Deps, route } from '../../platform/http';
import { REPORT_JOB } from './jobs';
import { activations, budgetsOf, processingInfo, saveBudget } from './queries';

/**
 * The processing dashboard (spec document 2 §2.8, §7), the report e-mails of 'How to Export' (§2.3) and
 * PayDesk's budget editing and scheduled reports. The dashboard is ISO-scoped like every dashboard, and so is
 * a report: the job builds it under the requester's ISO scope. Asking for a report and subscribing touch only
 * the caller's own account and the job queue ('platform'); budgets are internal staff's (the processor's
 * targets).
 */
export function processingRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: processingEndpoints.info,
    access: 'session',
    scope: 'iso',
    handler: ({ db, input, user }) => processingInfo(db, input, user.isoId),
  });

  route(app, deps, {
    endpoint: processingEndpoints.activation,
    access: 'session',
    scope: 'iso',
    handler: ({ db, input }) => activations(db, input.dt),
  });

  route(app, deps, {
    endpoint: processingEndpoints.email,
    access: 'session',
    scope: 'platform',
    handler: async ({ db, input, user }) => {
      if (input.rec.toLowerCase() !== user.email.toLowerCase()) {
        throw forbidden(`Reports are e-mailed to the signed-in user only: rec must be ${user.email}`);
      }
      const quarter = reportQuarter(input.yr, input.qr as Quarter);
      if (!quarter) {
        throw badRequest(
          `${input.yr} Q${input.qr} has no whole month yet: reports run from 2020 Q1 to last month`,
        );
      }
      const job = deps.jobs.definition(REPORT_JOB);
      if (!job) throw badRequest('Report e-mails are not available on this server');
      const jobId = await deps.jobs.send(
        job,
        { userId: user.id, yr: quarter.yr, qr: quarter.qr },
        { db, startedBy: user.id },
      );
      return {
        success: true,
        message: `The ${quarter.label} report will be e-mailed to ${user.email}`,
        jobId,
      };
    },
  });

  route(app, deps, {
    endpoint: processingEndpoints.budgets,
    access: 'session',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => ({
      ...(await budgetsOf(db, input.year)),
      canEdit: hasPermission(user, 'edit_budgets'),
    }),
  });

  route(app, deps, {
    endpoint: processingEndpoints.saveBudget,
    access: 'edit_budgets',
    scope: 'staffOnly',
    handler: async ({ db, input, user, req }) => {
      const row = await saveBudget(db, input, user, req.ip);
      return { success: true, message: `The ${row.bank} budget for ${row.mth.slice(0, 7)} is saved`, row };
    },
  });

  route(app, deps, {
    endpoint: processingEndpoints.subscriptions,
    access: 'session',
    scope: 'platform',
    handler: async ({ db, user }) => {
      const rows = await db
        .selectFrom('report_subscriptions')
        .select(['id', 'frequency', 'created_at', 'last_sent_at'])
        .where('user_id', '=', user.id)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        frequency: r.frequency,
        created: r.created_at,
        lastSent: r.last_sent_at,
      }));
    },
  });

  route(app, deps, {
    endpoint: processingEndpoints.subscribe,
    access: 'session',
    scope: 'platform',
    handler: async ({ db, input, user }) => {
      const row = await db
        .insertInto('report_subscriptions')
        .values({ user_id: user.id, frequency: input.frequency })
        .onConflict((oc) => oc.columns(['user_id', 'frequency']).doNothing())
        .returning(['id', 'frequency', 'created_at', 'last_sent_at'])
        .executeTakeFirst();
      if (!row) throw badRequest(`You already receive the processing report ${input.frequency}`);
      return { id: row.id, frequency: row.frequency, created: row.created_at, lastSent: row.last_sent_at };
    },
  });

  route(app, deps, {
    endpoint: processingEndpoints.cancelSubscription,
    access: 'session',
    scope: 'platform',
    handler: async ({ db, input, user }) => {
      const gone = await db
        .deleteFrom('report_subscriptions')
        .where('id', '=', input.id)
        .where('user_id', '=', user.id)
        .returning('frequency')
        .executeTakeFirst();
      if (!gone) throw notFound('No such subscription of yours');
      return { success: true, message: `You no longer receive the processing report ${gone.frequency}` };
    },
  });
}
