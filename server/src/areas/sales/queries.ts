import type {
  ApprovedByProfile,
  BankProfileCounts,
  GoalRow,
  MonthCounts,
  PartnerMerchantRow,
  PartnerRow,
  PendingRow,
  SubmittedByProfile,
} from '@paydesk/domain';
import { addMonths, BANKS, lastDayOfMonth, monthStart } from '@paydesk/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';
import { type AnswerPart, keptArrayInParts } from '../../platform/answerCache';
import type { JsonText } from '../../platform/http';
import { addDays, type Period, todayIso } from './periods';

/**
 * The sales dashboard's counts. Submitted and approved count applications by their submitted and approved
 * times; closed counts merchants by their closing date. `inHouse` limits them to the house's own partners.
 * Row-level security limits them to an ISO-bound user's ISO.
 */
type Scope = { inHouse?: boolean };

const inHouseJoin = (scope: Scope) =>
  scope.inHouse ? sql`join partners p on p.id = x.partner_id and p.in_house` : sql``;

const between = (column: string, p: Period) =>
  sql`${sql.ref(column)} >= ${p.from}::date and ${sql.ref(column)} < ${p.to}::date`;

async function one<T>(db: Db, query: RawBuilder<T>): Promise<T> {
  const { rows } = await query.execute(db);
  return rows[0] as T;
}

export function countSubmitted(db: Db, p: Period, scope: Scope = {}) {
  return one(
    db,
    sql<{
      Submitted: number;
    }>`select count(*)::int as "Submitted" from applications x ${inHouseJoin(scope)} where ${between('x.submitted_at', p)}`,
  );
}

export function countApproved(db: Db, p: Period, scope: Scope = {}) {
  return one(
    db,
    sql<{
      Approved: number;
    }>`select count(*)::int as "Approved" from applications x ${inHouseJoin(scope)} where ${between('x.approved_at', p)}`,
  );
}

export function countClosed(db: Db, p: Period, scope: Scope = {}) {
  return one(
    db,
    sql<{
      Closed: number;
    }>`select count(*)::int as "Closed" from merchants x ${inHouseJoin(scope)} where ${between('x.closed_on', p)}`,
  );
}

export function approvedByProfile(db: Db, p: Period): Promise<ApprovedByProfile> {
  return one(
    db,
    sql<ApprovedByProfile>`select count(*)::int as "Approved",
      count(*) filter (where profile = 'PayLo')::int as "PLApproved",
      count(*) filter (where profile = 'Traditional')::int as "TRApproved",
      count(*) filter (where profile = 'High Risk')::int as "HRApproved"
    from applications x where ${between('x.approved_at', p)}`,
  );
}

export function submittedByProfile(db: Db, p: Period): Promise<SubmittedByProfile> {
  return one(
    db,
    sql<SubmittedByProfile>`select count(*)::int as "Submitted",
      count(*) filter (where profile = 'PayLo')::int as "PLSubmitted",
      count(*) filter (where profile = 'Traditional')::int as "TRSubmitted",
      count(*) filter (where profile = 'High Risk')::int as "HRSubmitted"
    from applications x where ${between('x.submitted_at', p)}`,
  );
}

const PROFILE_CODES = { 'High Risk': 'HR', PayLo: 'PL', Traditional: 'TR', Unassigned: 'UN' } as const;

/** Approvals of a period by profile and by bank (platform), and by bank and profile together. */
export async function approvalsBreakdown(db: Db, p: Period, scope: Scope = {}) {
  const { rows } = await sql<{ profile: string; bank: string; n: number }>`
    select x.profile, x.sponsor_bank as bank, count(*)::int as n from applications x ${inHouseJoin(scope)}
    where ${between('x.approved_at', p)} group by 1, 2`.execute(db);
  const byProfile = { HighRisk: 0, PayLo: 0, Traditional: 0, Unassigned: 0 };
  const byBank: Record<string, number> = Object.fromEntries(BANKS.map((b) => [b, 0]));
  const byBankProfile: BankProfileCounts = {};
  for (const bank of BANKS)
    for (const code of Object.values(PROFILE_CODES)) byBankProfile[`${bank}_${code}`] = 0;
  let approved = 0;
  for (const r of rows) {
    approved += r.n;
    const key = r.profile === 'High Risk' ? 'HighRisk' : (r.profile as keyof typeof byProfile);
    if (key in byProfile) byProfile[key] += r.n;
    byBank[r.bank] = (byBank[r.bank] ?? 0) + r.n;
    const code = PROFILE_CODES[r.profile as keyof typeof PROFILE_CODES];
    if (code) byBankProfile[`${r.bank}_${code}`] = (byBankProfile[`${r.bank}_${code}`] ?? 0) + r.n;
  }
  return { approved, byProfile, byBank, byBankProfile };
}

export async function monthCounts(db: Db, p: Period): Promise<MonthCounts> {
  const s = await countSubmitted(db, p);
  const c = await countClosed(db, p);
  const b = await approvalsBreakdown(db, p);
  return {
    Submitted: s.Submitted,
    Approved: b.approved,
    Closed: c.Closed,
    ...b.byProfile,
    CBCAL: b.byBank.CBCAL ?? 0,
    PPS: b.byBank.PPS ?? 0,
    Esquire: b.byBank.Esquire ?? 0,
    Chesapeake: b.byBank.Chesapeake ?? 0,
    FirstData: b.byBank.FirstData ?? 0,
  };
}

/** Partner rows of a period: approvals, closures or both submissions and approvals, most first. */
export async function partnerCounts(
  db: Db,
  p: Period,
  kind: 'approved' | 'closed' | 'today',
  scope: Scope = {},
): Promise<PartnerRow[]> {
  const inHouse = scope.inHouse ? sql`and p.in_house` : sql``;
  if (kind === 'closed') {
    const { rows } = await sql<PartnerRow>`select p.account_name as "ISO", count(*)::int as "closureCount"
      from merchants x join partners p on p.id = x.partner_id where ${between('x.closed_on', p)} ${inHouse}
      group by p.account_name order by 2 desc, 1`.execute(db);
    return rows;
  }
  if (kind === 'approved') {
    const { rows } = await sql<PartnerRow>`select p.account_name as "ISO", count(*)::int as "appCount"
      from applications x join partners p on p.id = x.partner_id where ${between('x.approved_at', p)} ${inHouse}
      group by p.account_name order by 2 desc, 1`.execute(db);
    return rows;
  }
  const { rows } = await sql<PartnerRow>`select p.account_name as "ISO",
      count(*) filter (where ${between('x.submitted_at', p)})::int as "subCount",
      count(*) filter (where ${between('x.approved_at', p)})::int as "appCount"
    from applications x join partners p on p.id = x.partner_id
    where (${between('x.submitted_at', p)} or ${between('x.approved_at', p)}) ${inHouse}
    group by p.account_name order by 3 desc, 2 desc, 1`.execute(db);
  return rows;
}

/** The merchants behind a partner row. */
export async function partnerMerchants(
  db: Db,
  iso: string,
  p: Period,
  kind: 'approved' | 'closed' | 'today',
): Promise<PartnerMerchantRow[]> {
  const condition = kind === 'closed' ? between('m.closed_on', p) : between('a.approved_at', p);
  const from =
    kind === 'closed'
      ? sql`merchants m join partners p on p.id = m.partner_id`
      : sql`applications a join merchants m on m.id = a.merchant_id join partners p on p.id = m.partner_id`;
  const { rows } =
    await sql<PartnerMerchantRow>`select m.id, m.mid as "MID", m.dba as "DBA", m.sponsor_bank as "SponsorBank",
      m.profile, p.account_name as "ISO" from ${from} where p.account_name = ${iso} and ${condition} order by m.dba, m.id`.execute(
      db,
    );
  return rows;
}

/**
 * Every approval of the year to a day (the year-to-date details), newest first: the application and, once boarded,
 * its merchant, as the answer's JSON text written by the database from each approval's JSON kept by the writes
 * (approval_rows, migration 2026_12_18_0020). 30,000 approvals at the large scale are 3 MB of JSON: 144 ms as rows
 * read, checked and written again by the server, about 200 ms written by the database from the applications, their
 * merchants and ISOs and compressed, about 60 ms from the kept rows grouped by part and 30 ms a part at a time
 * (below). It is kept in parts (platform/answerCache.ts, keptArrayInParts), each earlier month of the year one part
 * and each day of the day's month one, until a write changes a kept approval of one of its days (migrations
 * 2026_12_11_0010 and 2026_12_18_0020): after today's approval, only today's approvals are read again.
 *
 * `since` (a day of dt's year, on or before it; the first of January when not given): only the approvals from that
 * day on, as a detail modal asks for its month or day. Its parts are those of the whole list that it covers (a whole
 * earlier month is that month's part, as in the year's list), and the days of a month it starts inside of: the same
 * kept parts, so a month's modal reads that month alone, or nothing once the year's list has read it.
 */
export function approvalDetails<T>(
  database: Db,
  db: Db,
  scope: string,
  dt: string,
  since = `${dt.slice(0, 4)}-01-01`,
): Promise<JsonText<T>> {
  const month = `${dt.slice(0, 7)}-01`;
  const parts: AnswerPart[] = [];
  const days = (first: string, last: string) => {
    for (let day = last; day >= first; day = addDays(day, -1))
      parts.push({ key: day, first: day, last: day });
  };
  // A whole month before this one (a past month's modal) is the year list's part of that month.
  if (since <= month && dt === lastDayOfMonth(month) && month < monthStart(new Date()))
    parts.push({ key: month.slice(0, 7), first: month, last: dt });
  else days(since > month ? since : month, dt);
  for (let from = addMonths(month, -1); from >= `${since.slice(0, 7)}-01`; from = addMonths(from, -1)) {
    const last = addDays(addMonths(from, 1), -1);
    if (from >= since) parts.push({ key: from.slice(0, 7), first: from, last });
    else days(since, last);
  }
  const question = since === `${dt.slice(0, 4)}-01-01` ? dt : `${since}..${dt}`;
  return keptArrayInParts<T>(database, db, 'approvals', scope, question, parts, async (stale) => {
    // Each part read on its own (a lateral per part, its range of the approvals in index order), not every row of the
    // parts' span named and grouped by its part. The rows as the writes keep them (approval_rows, migration
    // 2026_12_18_0020): each one's JSON up to its ISO, as staff read it or, under row-level security, as its ISO's
    // users do; the approval day is added here, named in this session's time zone like the parts. Whether row-level
    // security applies is asked once (a materialized CTE): a subquery merged into the statement asked it for every
    // row, a fifth of the statement's time. Every part at the large scale, with their compression: 62–87 ms grouped,
    // 46 a part at a time, 29 asked once (medians, docs/bench.md).
    const { rows } = await sql<{ part: string; text: string }>`
      with s as materialized (select row_security_active('approval_rows') as iso)
      select p.part, x.text
      from unnest(${sql.val(stale.map((p) => p.key))}::text[], ${sql.val(stale.map((p) => p.first))}::date[],
          ${sql.val(stale.map((p) => p.last))}::date[]) p(part, first, last)
        cross join s
        cross join lateral (select string_agg(case when s.iso then coalesce(r.head_iso, r.head) else r.head end
            || ',"approved":"' || to_char(r.approved_at, 'YYYY-MM-DD') || '"}', ',' order by r.approved_at desc,
            r.application_id) as text
          from approval_rows r where r.approved_at >= p.first and r.approved_at < p.last + 1) x
      where x.text is not null`.execute(db);
    return new Map(rows.map((r) => [r.part, r.text]));
  });
}

/** Approvals per month of a year, all twelve months. */
/**
 * Each month's approvals, counted as one range of the approvals index per month: counting the index entries is
 * cheaper than grouping them by a month computed for each (54,000 approvals at the xl scale: 16–18 ms grouped,
 * 11–16 ms counted by month).
 */
export async function yearApprovals(db: Db, year: Period) {
  const { rows } = await sql<{ Month: string; Approved: number }>`
    select to_char(m, 'YYYY-MM') as "Month",
      (select count(*) from applications a
       where a.approved_at >= m and a.approved_at < m + interval '1 month'
         and a.approved_at >= ${year.from}::date and a.approved_at < ${year.to}::date)::int as "Approved"
    from generate_series(${year.from}::date, ${year.to}::date - interval '1 day', interval '1 month') m
    order by 1`.execute(db);
  return rows;
}

/**
 * The approvals goal of each month of a year. The goals are the company's internal targets: with
 * `companyGoals` false (an ISO-bound user) every month answers no goal, and approval_goals is not read
 * (the ISO role may not read it either).
 */
export async function yearGoals(db: Db, year: Period, { companyGoals }: { companyGoals: boolean }) {
  const months = sql`generate_series(${year.from}::date, ${year.to}::date - interval '1 day', interval '1 month') m`;
  const { rows } = companyGoals
    ? await sql<GoalRow>`select to_char(m, 'YYYY-MM') as "Month", coalesce(g.goal, 0) as goal
        from ${months} left join approval_goals g on g.month = m::date order by 1`.execute(db)
    : await sql<GoalRow>`select to_char(m, 'YYYY-MM') as "Month", null::int as goal from ${months} order by 1`.execute(
        db,
      );
  return rows;
}

export async function holidaysOf(db: Db, year: Period) {
  const { rows } = await sql<{ holiday: string }>`select day::text as holiday from holidays
    where day >= ${year.from}::date and day < ${year.to}::date order by day`.execute(db);
  return rows;
}

/** Pending applications by level; `olderThanDays` keeps those submitted more than that many days ago. */
export async function pendingByLevel(db: Db, olderThanDays = 0): Promise<PendingRow[]> {
  const before = olderThanDays === 0 ? addDays(todayIso(), 1) : addDays(todayIso(), -olderThanDays);
  const { rows } = await sql<{
    level: number;
    n: number;
  }>`select pending_level as level, count(*)::int as n from applications
    where status = 'Pending' and submitted_at < ${before}::date group by 1`.execute(db);
  return [1, 2, 3].map((level) => ({
    Lvl: `Level${level}`,
    lvlCount: rows.find((r) => r.level === level)?.n ?? 0,
  }));
}

export async function leaderboard(db: Db, column: 'underwriter' | 'rm', p: Period) {
  const { rows } = await sql<{
    Name: string;
    Approved: number;
  }>`select ${sql.ref(`a.${column}`)} as "Name", count(*)::int as "Approved"
    from applications a where ${between('a.approved_at', p)} and ${sql.ref(`a.${column}`)} is not null
    group by 1 order by 2 desc, 1`.execute(db);
  return rows;
}
