import {
  type IncomeRow,
  type IsoAnalyticsAnswer,
  type IsoInfoRow,
  type IsoStatsRow,
  type MccRow,
  STATE_CENTERS,
  type TransactionRow,
} from '@paydesk/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';
import { badRequest } from '../../platform/errors';

/*
 * Business Intelligence (docs/bi.md defines every figure). Every query runs in the caller's ISO scope, so an
 * ISO-bound user's groups and merchants are their own ISO's only. A merchant is open when it has no closing
 * day or closes after today; its deal is its approval.
 */

const OPEN = sql`(m.closed_on is null or m.closed_on > current_date)`;

/** The partner groups with merchants, each with its ISO. */
export async function analyticsOptions(db: Db): Promise<{ partner: string; iso: string }[]> {
  const { rows } = await sql<{ partner: string; iso: string }>`
    select distinct g.group_name as partner, p.account_name as iso
    from groups g join partners p on p.id = g.partner_id
    where exists (select 1 from merchants m where m.group_id = g.group_id)
    order by 1, 2`.execute(db);
  return rows;
}

/** The groups named (none: every group with merchants); a name the caller cannot see is refused. */
async function chosenGroups(db: Db, names: readonly string[]): Promise<RawBuilder<unknown>> {
  if (names.length === 0) return sql`true`;
  const { rows } = await sql<{ group_name: string }>`
    select distinct group_name from groups where group_name in (${sql.join(names)})`.execute(db);
  const known = new Set(rows.map((r) => r.group_name));
  const missing = names.find((n) => !known.has(n));
  if (missing !== undefined) throw badRequest(`Unknown partner group: ${missing}`);
  return sql`g.group_name in (${sql.join(names)})`;
}

/** output[0] approvals per group and month, output[1] open merchants per state, output[2] the stats rows. */
export async function analyticsData(
  db: Db,
  input: { groups: string[]; start: string; end: string },
): Promise<IsoAnalyticsAnswer> {
  const where = await chosenGroups(db, input.groups);
  const sel = sql`sel as (
    select g.group_id, g.group_name, g.partner_id, p.account_name as iso
    from groups g join partners p on p.id = g.partner_id
    where ${where} and exists (select 1 from merchants m where m.group_id = g.group_id))`;

  const graph = await sql<IsoAnalyticsAnswer['output'][0][number]>`
    with ${sel}
    select s.group_name as "GroupLevel1Name", date_trunc('month', m.approved_on)::date::text as "OpenDate",
           count(*)::int as "ApprovalCount"
    from merchants m join sel s on s.group_id = m.group_id
    group by 1, 2 order by 2, 1`.execute(db);

  const map = await sql<{ state: string; cnt: number }>`
    with ${sel}
    select m.state, count(*)::int as cnt
    from merchants m join sel s on s.group_id = m.group_id
    where ${OPEN} and m.state is not null
    group by m.state order by m.state`.execute(db);

  // The deals of every group of the ISOs concerned, so a group's row can carry its ISO's house profit.
  const stats = await sql<IsoStatsRow>`
    with ${sel},
    deals as (
      select m.id, m.group_id, m.partner_id, m.approved_on, ${OPEN} as open
      from merchants m
      where m.partner_id in (select partner_id from sel)
        and m.approved_on >= ${input.start}::date
        and m.approved_on < (${input.end}::date + interval '1 month')
    ),
    earned as (
      select i.merchant_id, sum(i.net) as net, sum(i.payouts) as payouts
      from merchant_income i
      where i.merchant_id in (select id from deals) and i.month <= ${input.end}::date
      group by i.merchant_id
    ),
    per_group as (
      select d.group_id, count(*)::int as approved, count(*) filter (where d.open)::int as open,
             min(d.approved_on) as first, max(d.approved_on) as last,
             coalesce(sum(e.net), 0) as net, coalesce(sum(e.payouts), 0) as payouts
      from deals d left join earned e on e.merchant_id = d.id
      group by d.group_id
    ),
    per_iso as (
      select d.partner_id, coalesce(sum(e.net - e.payouts), 0) as house
      from deals d left join earned e on e.merchant_id = d.id
      group by d.partner_id
    ),
    rows as (
      select s.group_name, s.iso, s.partner_id, coalesce(sum(pg.approved), 0)::int as approved,
             coalesce(sum(pg.open), 0)::int as open, min(pg.first) as first, max(pg.last) as last,
             coalesce(sum(pg.net), 0) as net, coalesce(sum(pg.payouts), 0) as payouts
      from sel s left join per_group pg on pg.group_id = s.group_id
      group by s.group_name, s.iso, s.partner_id
    )
    select r.group_name as groupname, r.iso, r.first::text as first, r.last::text as last,
           case when r.approved > 1 then round((r.last - r.first)::numeric / (r.approved - 1), 1)::text end as avgdaysbw,
           r.open as "openCount", r.approved as "approvedCount",
           case when r.approved > 0 then round(r.open * 100.0 / r.approved, 1)::text end as "retentionPercent",
           case when r.approved > 0 then round(r.net / r.approved, 2)::text end as "TotalIncomePerDeal",
           case when r.approved > 0 then round(r.payouts / r.approved, 2)::text end as "ISOProfitPerDeal",
           case when r.approved > 0 then round((r.net - r.payouts) / r.approved, 2)::text end as "HouseProfitPerDeal",
           round(coalesce(pi.house, 0), 2)::text as "HouseProfitPerISO"
    from rows r left join per_iso pi on pi.partner_id = r.partner_id
    order by r.approved desc, r.group_name`.execute(db);

  return {
    output: [
      graph.rows,
      map.rows.flatMap((r) => {
        const centre = STATE_CENTERS[r.state];
        return centre ? [{ state: r.state, state_lat: centre[0], state_lng: centre[1], cnt: r.cnt }] : [];
      }),
      stats.rows,
    ],
  };
}

/** Months since approval (or, for a closed deal, its lifetime), as docs/bi.md's age buckets count them. */
const MONTHS = (to: RawBuilder<unknown>) =>
  sql`(extract(year from age(${to}, m.approved_on)) * 12 + extract(month from age(${to}, m.approved_on)))::int`;

/** Counts per age bucket (0–6 m, 6–12 m, 1–2 y, 2–3 y, > 3 y), comma-joined. */
const ageSet = (which: RawBuilder<unknown>) => sql`concat_ws(',',
  count(*) filter (where ${which} and age < 6), count(*) filter (where ${which} and age >= 6 and age < 12),
  count(*) filter (where ${which} and age >= 12 and age < 24), count(*) filter (where ${which} and age >= 24 and age < 36),
  count(*) filter (where ${which} and age >= 36))`;

/** Every ISO with merchants: its group IDs, deals, deal ages and bank and profile shares. */
export async function allInformation(db: Db): Promise<IsoInfoRow[]> {
  const { rows } = await sql<IsoInfoRow>`
    with ids as (
      select partner_id, string_agg(group_id, ',' order by group_id) as group_id from groups group by partner_id
    ),
    d as (
      select m.partner_id, m.approved_on, m.closed_on, m.sponsor_bank, m.profile, ${OPEN} as open,
             case when ${OPEN} then current_date - m.approved_on else m.closed_on - m.approved_on end as days,
             case when ${OPEN} then ${MONTHS(sql`current_date`)} else ${MONTHS(sql`m.closed_on`)} end as age
      from merchants m
    )
    select p.account_name as iso_name, coalesce(ids.group_id, '') as group_id, count(*)::int as approved_deals,
           min(d.approved_on)::text as first_deal, max(d.approved_on)::text as last_deal,
           case when count(*) > 1
             then round((max(d.approved_on) - min(d.approved_on))::numeric / (count(*) - 1), 1)::text end
             as average_days_bw_deals,
           count(*) filter (where d.open)::int as open_deals, count(*) filter (where not d.open)::int as closed_deals,
           max(d.days) filter (where d.open) as open_longest, min(d.days) filter (where d.open) as open_shortest,
           max(d.days) filter (where not d.open) as closed_longest, min(d.days) filter (where not d.open) as closed_shortest,
           ${ageSet(sql`d.open`)} as open_age_set, ${ageSet(sql`not d.open`)} as closed_age_set,
           count(*) filter (where d.sponsor_bank = 'CBCAL')::int as cbcal,
           count(*) filter (where d.sponsor_bank = 'Esquire')::int as esquire,
           count(*) filter (where d.sponsor_bank = 'Chesapeake')::int as chesapeake,
           count(*) filter (where d.profile = 'PayLo')::int as pl_count,
           count(*) filter (where d.profile = 'Traditional')::int as tr_count,
           count(*) filter (where d.profile = 'High Risk')::int as hr_count,
           count(*) filter (where d.profile not in ('PayLo', 'Traditional', 'High Risk'))::int as ns_count
    from d join partners p on p.id = d.partner_id left join ids on ids.partner_id = d.partner_id
    where trim(p.account_name) <> ''
    group by p.account_name, ids.group_id
    order by p.account_name`.execute(db);
  return rows;
}

/** Refuses group IDs the caller cannot see and an MCC that does not exist. */
async function checkChoice(db: Db, groupIDs: readonly string[], mcc = 'All') {
  const { rows } = await sql<{ group_id: string }>`
    select distinct group_id from groups where group_id in (${sql.join(groupIDs)})`.execute(db);
  const known = new Set(rows.map((r) => r.group_id));
  const missing = groupIDs.find((g) => !known.has(g));
  if (missing !== undefined) throw badRequest(`Unknown group ID: ${missing}`);
  if (mcc !== 'All') {
    const { rows: codes } = await sql`select 1 from mcc_codes where code = ${mcc}`.execute(db);
    if (codes.length === 0) throw badRequest(`Unknown MCC: ${mcc}`);
  }
}

const merchantsOf = (groupIDs: readonly string[], mcc: string) =>
  sql`select m.id, m.profile, m.approved_on, m.closed_on from merchants m
      where m.group_id in (${sql.join(groupIDs)}) ${mcc === 'All' ? sql`` : sql`and m.mcc = ${mcc}`}`;

const PROFILE_KEYS = [
  ['tr', sql`= 'Traditional'`],
  ['pl', sql`= 'PayLo'`],
  ['hr', sql`= 'High Risk'`],
  ['ns', sql`not in ('Traditional', 'PayLo', 'High Risk')`],
] as const;

/** Volume, transactions, chargebacks and refunds of the groups' merchants per day or month of the window. */
export async function transactions(
  db: Db,
  input: { groupIDs: string[]; date: string; end: string; monthly: boolean; mcc: string },
): Promise<TransactionRow[]> {
  await checkChoice(db, input.groupIDs, input.mcc);
  const [table, column, step, first, last] = input.monthly
    ? [
        sql`merchant_monthly`,
        sql`month`,
        sql`interval '1 month'`,
        sql`date_trunc('month', ${input.date}::date)`,
        sql`date_trunc('month', ${input.end}::date)`,
      ]
    : [
        sql`merchant_daily`,
        sql`day`,
        sql`interval '1 day'`,
        sql`${input.date}::date`,
        sql`${input.end}::date`,
      ];
  const periodEnd = input.monthly ? sql`(p.p + interval '1 month' - interval '1 day')::date` : sql`p.p`;
  const perProfile = PROFILE_KEYS.flatMap(([key, test]) => [
    sql`count(distinct a.merchant_id) filter (where a.transactions > 0 and m.profile ${test})::int as ${sql.ref(`${key}_mid_count`)}`,
    sql`coalesce(sum(a.transactions) filter (where m.profile ${test}), 0)::int as ${sql.ref(`${key}_txn_count`)}`,
    sql`coalesce(sum(a.chargebacks) filter (where m.profile ${test}), 0)::int as ${sql.ref(`${key}_chbk_count`)}`,
    sql`coalesce(sum(a.refunds) filter (where m.profile ${test}), 0)::int as ${sql.ref(`${key}_ref_count`)}`,
  ]);
  const { rows } = await sql<TransactionRow>`
    with sel as (${merchantsOf(input.groupIDs, input.mcc)}),
    p as (select p::date as p from generate_series(${first}, ${last}, ${step}) p)
    select p.p::text as txn_date,
           coalesce(sum(a.volume), 0)::float8 as txn_volume, coalesce(sum(a.transactions), 0)::int as txn_count,
           coalesce(sum(a.chargeback_volume), 0)::float8 as chbk_volume, coalesce(sum(a.chargebacks), 0)::int as chbk_count,
           coalesce(sum(a.refund_volume), 0)::float8 as ref_volume, coalesce(sum(a.refunds), 0)::int as ref_count,
           (select count(*) from sel m where m.approved_on <= ${periodEnd}
              and (m.closed_on is null or m.closed_on > ${periodEnd}))::int as mid_count,
           count(distinct a.merchant_id) filter (where a.transactions > 0)::int as active_count,
           ${sql.join(perProfile)}
    from p
    left join ${table} a on a.${column} = p.p and a.merchant_id in (select id from sel)
    left join sel m on m.id = a.merchant_id
    group by p.p order by p.p`.execute(db);
  return rows;
}

/** Gross and net income, expenses and payouts of the groups' merchants per month of the window. */
export async function income(
  db: Db,
  input: { groupIDs: string[]; date: string; end: string; mcc: string },
): Promise<IncomeRow[]> {
  await checkChoice(db, input.groupIDs, input.mcc);
  const { rows } = await sql<IncomeRow>`
    with sel as (${merchantsOf(input.groupIDs, input.mcc)})
    select p::date::text as income_date,
           coalesce(sum(i.gross), 0)::float8 as gross_income, coalesce(sum(i.net), 0)::float8 as net_income,
           coalesce(sum(i.expenses), 0)::float8 as expenses, coalesce(sum(i.payouts), 0)::float8 as payouts,
           count(i.merchant_id)::int as mid_count
    from generate_series(date_trunc('month', ${input.date}::date), date_trunc('month', ${input.end}::date), interval '1 month') p
    left join merchant_income i on i.month = p::date and i.merchant_id in (select id from sel)
    group by p order by p`.execute(db);
  return rows;
}

/** The groups' merchants (open or closed) per MCC, most first. */
export async function mccCounts(db: Db, groupIDs: string[]): Promise<MccRow[]> {
  await checkChoice(db, groupIDs);
  const { rows } = await sql<MccRow>`
    select m.mcc as mcc_code, coalesce(c.description, '') as mcc_desc, count(*)::int as mcc_count
    from merchants m left join mcc_codes c on c.code = m.mcc
    where m.group_id in (${sql.join(groupIDs)})
    group by m.mcc, c.description
    order by 3 desc, 1`.execute(db);
  return rows;
}
