import {
  type Bank,
  type cntrBody,
  type dtBody,
  type Endpoint,
  PENDING_DAYS,
  type ResultOf,
  salesEndpoints,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/connect';
import { scopeKey } from '../../platform/answerCache';
import { type Deps, route } from '../../platform/http';
import { addDays, monthOf, monthOfCntr, type Period, today, yearOf, yesterday } from './periods';
import {
  approvalDetails,
  approvalsBreakdown,
  approvedByProfile,
  countApproved,
  countClosed,
  countSubmitted,
  holidaysOf,
  leaderboard,
  monthCounts,
  partnerCounts,
  partnerMerchants,
  pendingByLevel,
  submittedByProfile,
  yearApprovals,
  yearGoals,
} from './queries';

/**
 * Spec document 1 §7 Sales calls, with their methods, bodies and record field names. Each answers a list of
 * records, as the older API did. An ISO-bound user's figures are their ISO's (row-level security).
 */
export function salesRoutes(app: FastifyInstance, deps: Deps) {
  const noBody = <E extends Endpoint<'POST', null, z.ZodType>>(
    endpoint: E,
    answer: (db: Db) => Promise<ResultOf<E>>,
  ) =>
    route(app, deps, {
      endpoint,
      access: 'session',
      scope: 'iso',
      handler: ({ db }) => answer(db),
    });
  const withCntr = <E extends Endpoint<'POST', typeof cntrBody, z.ZodType>>(
    endpoint: E,
    answer: (db: Db, month: Period) => Promise<ResultOf<E>>,
  ) =>
    route(app, deps, {
      endpoint,
      access: 'session',
      scope: 'iso',
      handler: ({ db, input }) => answer(db, monthOfCntr((input as z.output<typeof cntrBody>).cntr)),
    });
  const withDt = <E extends Endpoint<'POST', typeof dtBody, z.ZodType>>(
    endpoint: E,
    answer: (db: Db, dt: string) => Promise<ResultOf<E>>,
  ) =>
    route(app, deps, {
      endpoint,
      access: 'session',
      scope: 'iso',
      handler: ({ db, input }) => answer(db, (input as z.output<typeof dtBody>).dt),
    });
  const list = async <T>(row: Promise<T>) => [await row];

  noBody(salesEndpoints.approvedToday, (db) => list(countApproved(db, today())));
  noBody(salesEndpoints.submittedToday, (db) => list(countSubmitted(db, today())));
  noBody(salesEndpoints.approvedTodayInHouse, (db) => list(countApproved(db, today(), { inHouse: true })));
  noBody(salesEndpoints.submittedTodayInHouse, (db) => list(countSubmitted(db, today(), { inHouse: true })));
  noBody(salesEndpoints.approvedTodayByProfile, (db) => list(approvedByProfile(db, today())));
  noBody(salesEndpoints.submittedTodayByProfile, (db) => list(submittedByProfile(db, today())));
  noBody(salesEndpoints.approvedYest, (db) => list(countApproved(db, yesterday())));
  noBody(salesEndpoints.submittedYest, (db) => list(countSubmitted(db, yesterday())));
  noBody(salesEndpoints.approvedYestByProfile, (db) => list(approvedByProfile(db, yesterday())));
  noBody(salesEndpoints.submittedYestByProfile, (db) => list(submittedByProfile(db, yesterday())));
  noBody(salesEndpoints.submittedApprovedTodayPartner, (db) => partnerCounts(db, today(), 'today'));
  noBody(salesEndpoints.submittedApprovedTodayInHousePartner, (db) =>
    partnerCounts(db, today(), 'today', { inHouse: true }),
  );
  noBody(salesEndpoints.pending45days, (db) => pendingByLevel(db, PENDING_DAYS));

  withCntr(
    salesEndpoints.approvedMTD,
    async (db, month): Promise<ResultOf<typeof salesEndpoints.approvedMTD>> => {
      const b = await approvalsBreakdown(db, month);
      return [
        { Approved: b.approved, ...b.byProfile, ...(b.byBank as Record<Bank, number>) },
        b.byBankProfile,
      ];
    },
  );
  withCntr(salesEndpoints.submittedMTD, (db, month) => list(countSubmitted(db, month)));
  withCntr(salesEndpoints.closedMTD, (db, month) => list(countClosed(db, month)));
  withCntr(salesEndpoints.approvedMTDInHouse, (db, month) =>
    list(countApproved(db, month, { inHouse: true })),
  );
  withCntr(salesEndpoints.submittedMTDInHouse, (db, month) =>
    list(countSubmitted(db, month, { inHouse: true })),
  );
  withCntr(salesEndpoints.approvedMTDPartner, (db, month) => partnerCounts(db, month, 'approved'));
  withCntr(salesEndpoints.approvedMTDInHousePartner, (db, month) =>
    partnerCounts(db, month, 'approved', { inHouse: true }),
  );
  withCntr(salesEndpoints.closedMTDPartner, (db, month) => partnerCounts(db, month, 'closed'));

  withDt(salesEndpoints.day, async (db, dt) => {
    const day = { from: dt, to: addDays(dt, 1) };
    return [{ ...(await countSubmitted(db, day)), ...(await countApproved(db, day)) }];
  });
  withDt(salesEndpoints.month, (db, dt) => list(monthCounts(db, monthOf(dt))));
  withDt(salesEndpoints.year, (db, dt) => yearApprovals(db, yearOf(dt)));
  // Every approval of the year to the day asked (3 MB at the large scale), or from `from` on (a detail modal's month
  // or day), kept per scope in parts (months, and the days of the last month), each until a write touches an
  // approval of one of its days.
  route(app, deps, {
    endpoint: salesEndpoints.approvedYTDDetails,
    access: 'session',
    scope: 'iso',
    handler: ({ db, input, user }) => approvalDetails(deps.db, db, scopeKey(user), input.dt, input.from),
  });
  route(app, deps, {
    endpoint: salesEndpoints.salesYTDgoals,
    access: 'session',
    scope: 'iso',
    handler: ({ db, input, user }) => yearGoals(db, yearOf(input.dt), { companyGoals: user.isoId === null }),
  });
  withDt(salesEndpoints.holiday, (db, dt) => holidaysOf(db, yearOf(dt)));

  route(app, deps, {
    endpoint: salesEndpoints.pend,
    access: 'session',
    scope: 'iso',
    handler: ({ db }) => pendingByLevel(db),
  });

  route(app, deps, {
    endpoint: salesEndpoints.partnerMerchants,
    access: 'session',
    scope: 'iso',
    handler: ({ db, input }) =>
      partnerMerchants(db, input.iso, input.list === 'today' ? today() : monthOfCntr(input.cntr), input.list),
  });

  noBody(salesEndpoints.leaderboardUW, (db) => leaderboard(db, 'underwriter', monthOfCntr(0)));
  noBody(salesEndpoints.leaderboardRM, (db) => leaderboard(db, 'rm', monthOfCntr(0)));
}
