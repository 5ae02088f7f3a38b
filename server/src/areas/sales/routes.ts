import { cntrBody, dtBody, PENDING_DAYS, partnerMerchantsBody, salesPaths } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect';
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
  const noBody = (url: string, answer: (db: Db) => Promise<unknown>) =>
    route(app, deps, {
      method: 'POST',
      url,
      access: 'session',
      scope: 'iso',
      handler: ({ db }) => answer(db),
    });
  const withCntr = (url: string, answer: (db: Db, month: Period) => Promise<unknown>) =>
    route(app, deps, {
      method: 'POST',
      url,
      access: 'session',
      scope: 'iso',
      input: cntrBody,
      handler: ({ db, input }) => answer(db, monthOfCntr(input.cntr)),
    });
  const withDt = (url: string, answer: (db: Db, dt: string) => Promise<unknown>) =>
    route(app, deps, {
      method: 'POST',
      url,
      access: 'session',
      scope: 'iso',
      input: dtBody,
      handler: ({ db, input }) => answer(db, input.dt),
    });
  const list = async <T>(row: Promise<T>) => [await row];

  noBody(salesPaths.approvedToday, (db) => list(countApproved(db, today())));
  noBody(salesPaths.submittedToday, (db) => list(countSubmitted(db, today())));
  noBody(salesPaths.approvedTodayInHouse, (db) => list(countApproved(db, today(), { inHouse: true })));
  noBody(salesPaths.submittedTodayInHouse, (db) => list(countSubmitted(db, today(), { inHouse: true })));
  noBody(salesPaths.approvedTodayByProfile, (db) => list(approvedByProfile(db, today())));
  noBody(salesPaths.submittedTodayByProfile, (db) => list(submittedByProfile(db, today())));
  noBody(salesPaths.approvedYest, (db) => list(countApproved(db, yesterday())));
  noBody(salesPaths.submittedYest, (db) => list(countSubmitted(db, yesterday())));
  noBody(salesPaths.approvedYestByProfile, (db) => list(approvedByProfile(db, yesterday())));
  noBody(salesPaths.submittedYestByProfile, (db) => list(submittedByProfile(db, yesterday())));
  noBody(salesPaths.submittedApprovedTodayPartner, (db) => partnerCounts(db, today(), 'today'));
  noBody(salesPaths.submittedApprovedTodayInHousePartner, (db) =>
    partnerCounts(db, today(), 'today', { inHouse: true }),
  );
  noBody(salesPaths.pending45days, (db) => pendingByLevel(db, PENDING_DAYS));

  withCntr(salesPaths.approvedMTD, async (db, month) => {
    const b = await approvalsBreakdown(db, month);
    return [{ Approved: b.approved, ...b.byProfile, ...b.byBank }, b.byBankProfile];
  });
  withCntr(salesPaths.submittedMTD, (db, month) => list(countSubmitted(db, month)));
  withCntr(salesPaths.closedMTD, (db, month) => list(countClosed(db, month)));
  withCntr(salesPaths.approvedMTDInHouse, (db, month) => list(countApproved(db, month, { inHouse: true })));
  withCntr(salesPaths.submittedMTDInHouse, (db, month) => list(countSubmitted(db, month, { inHouse: true })));
  withCntr(salesPaths.approvedMTDPartner, (db, month) => partnerCounts(db, month, 'approved'));
  withCntr(salesPaths.approvedMTDInHousePartner, (db, month) =>
    partnerCounts(db, month, 'approved', { inHouse: true }),
  );
  withCntr(salesPaths.closedMTDPartner, (db, month) => partnerCounts(db, month, 'closed'));

  withDt(salesPaths.day, async (db, dt) => {
    const day = { from: dt, to: addDays(dt, 1) };
    return [{ ...(await countSubmitted(db, day)), ...(await countApproved(db, day)) }];
  });
  withDt(salesPaths.month, (db, dt) => list(monthCounts(db, monthOf(dt))));
  withDt(salesPaths.year, (db, dt) => yearApprovals(db, yearOf(dt)));
  withDt(salesPaths.approvedYTDDetails, (db, dt) =>
    approvalDetails(db, { from: yearOf(dt).from, to: addDays(dt, 1) }),
  );
  route(app, deps, {
    method: 'POST',
    url: salesPaths.salesYTDgoals,
    access: 'session',
    scope: 'iso',
    input: dtBody,
    handler: ({ db, input, user }) => yearGoals(db, yearOf(input.dt), { companyGoals: user.isoId === null }),
  });
  withDt(salesPaths.holiday, (db, dt) => holidaysOf(db, yearOf(dt)));

  route(app, deps, {
    method: 'GET',
    url: salesPaths.pend,
    access: 'session',
    scope: 'iso',
    handler: ({ db }) => pendingByLevel(db),
  });

  route(app, deps, {
    method: 'POST',
    url: salesPaths.partnerMerchants,
    access: 'session',
    scope: 'iso',
    input: partnerMerchantsBody,
    handler: ({ db, input }) =>
      partnerMerchants(db, input.iso, input.list === 'today' ? today() : monthOfCntr(input.cntr), input.list),
  });

  noBody(salesPaths.leaderboardUW, (db) => leaderboard(db, 'underwriter', monthOfCntr(0)));
  noBody(salesPaths.leaderboardRM, (db) => leaderboard(db, 'rm', monthOfCntr(0)));
}
