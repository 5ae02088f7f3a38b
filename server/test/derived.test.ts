import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/connect';
import {
  MERCHANT_ISO_COPIES,
  moveMerchant,
  rebuildAll,
  refreshDerived,
  SOURCE_TABLES,
  type SourceChange,
} from '../src/db/derived';
import { catchUpLiveDemo } from '../src/db/seed/live';
import { scopeTransaction } from '../src/platform/scope';
import { addUser, Client, type TestApp, testApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t?.close();
});

async function one<T>(query: ReturnType<typeof sql<T>>, db: Db = t.db): Promise<T> {
  const { rows } = await query.execute(db);
  return rows[0] as T;
}

/**
 * The oracle: each derived table as it should be, from plain aggregates over the raw rows, written apart
 * from the module's SQL. Rows compare as their text, so decimals must agree to the digit.
 */
const EXPECTED_SELFSERVE = sql`
  select row(a.month, a.merchant_id, m.partner_id, m.sponsor_bank, p.account_name, m.group_id, m.mid, m.dba,
    m.legal_name, m.profile, case m.profile when 'High Risk' then 'Y' else 'N' end, m.association_number, m.mcc,
    case when m.closed_on <= (a.month + interval '1 month' - interval '1 day')::date then 'Closed' else 'Open' end,
    m.email, m.phone, m.cb_email, m.address, m.city, m.state, m.zip, m.funding, m.activated_on, m.opened_on,
    case when m.closed_on <= (a.month + interval '1 month' - interval '1 day')::date then m.closed_on end,
    a.volume, a.transactions, a.chargeback_volume, a.chargebacks, a.refund_volume, a.refunds,
    coalesce(i.net, 0.00)
  )::text as r
  from merchant_monthly a
  join merchants m on m.id = a.merchant_id
  join partners p on p.id = m.partner_id
  left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month`;

const EXPECTED_ROLLUP = sql`
  with mm as (
    select a.month, a.volume, a.transactions, coalesce(i.net, 0.00) as net, m.profile, m.sponsor_bank, m.mcc,
           m.partner_id, m.opened_on,
           ((extract(year from a.month) - extract(year from m.opened_on)) * 12
             + extract(month from a.month) - extract(month from m.opened_on))::int as age
    from merchant_monthly a
    join merchants m on m.id = a.merchant_id
    left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month
  ), keyed as (
              select month, 'all' as dimension, '' as value, volume, transactions, net, age from mm
    union all select month, 'profile', profile, volume, transactions, net, age from mm
    union all select month, 'bank', sponsor_bank, volume, transactions, net, age from mm
    union all select month, 'omonth', to_char(opened_on, 'FMMM'), volume, transactions, net, age from mm
    union all select month, 'oyear', to_char(opened_on, 'YYYY'), volume, transactions, net, age from mm
    union all select month, 'mcc', mcc, volume, transactions, net, age from mm
    union all select month, 'partner', partner_id::text, volume, transactions, net, age from mm
  )
  select row(month, dimension, value, sum(volume), sum(transactions), sum(net), count(*)::int, sum(age))::text as r
  from keyed group by month, dimension, value`;

const EXPECTED_PROCESSING_DAILY = sql`
  select row(d.day, m.partner_id, sum(d.volume), sum(d.transactions))::text as r
  from merchant_daily d join merchants m on m.id = d.merchant_id group by d.day, m.partner_id
  union all
  select row(day, 0, sum(volume), sum(transactions))::text from merchant_daily group by day`;

const EXPECTED_DEAL_INCOME = sql`
  select row(i.merchant_id, m.partner_id, sum(i.net), sum(i.payouts), max(i.month))::text as r
  from merchant_income i join merchants m on m.id = i.merchant_id group by i.merchant_id, m.partner_id`;

/** A partner group's activity per day or month, in total and per profile (tr, pl, hr, ns in that order). */
const expectedBiActivity = (source: 'merchant_daily' | 'merchant_monthly', period: 'day' | 'month') => {
  const perProfile = ['Traditional', 'PayLo', 'High Risk', null].map((profile) => {
    const is = profile === null ? sql`k is null` : sql`k = ${profile}`;
    return sql`sum(case when ${is} and transactions > 0 then 1 else 0 end),
      sum(case when ${is} then transactions else 0 end), sum(case when ${is} then chargebacks else 0 end),
      sum(case when ${is} then refunds else 0 end)`;
  });
  return sql`
    with x as (
      select m.group_id, a.${sql.ref(period)} as p, m.partner_id, a.volume, a.transactions, a.chargeback_volume,
             a.chargebacks, a.refund_volume, a.refunds,
             case when m.profile in ('Traditional', 'PayLo', 'High Risk') then m.profile end as k
      from ${sql.table(source)} a join merchants m on m.id = a.merchant_id
    )
    select row(group_id, p, partner_id, sum(volume), sum(transactions), sum(chargeback_volume), sum(chargebacks),
               sum(refund_volume), sum(refunds), sum(case when transactions > 0 then 1 else 0 end),
               ${sql.join(perProfile)})::text as r
    from x group by group_id, p, partner_id`;
};

const EXPECTED_BI_INCOME = sql`
  select row(m.group_id, i.month, m.partner_id, sum(i.gross), sum(i.net), sum(i.expenses), sum(i.payouts),
             count(*))::text as r
  from merchant_income i join merchants m on m.id = i.merchant_id group by m.group_id, i.month, m.partner_id`;

const EXPECTED_BI_DEALS = sql`
  with deal as (
    select m.group_id, date_trunc('month', m.approved_on)::date as month, m.partner_id, m.approved_on, m.closed_on,
           (select sum(net) from merchant_income i where i.merchant_id = m.id) as net,
           (select sum(payouts) from merchant_income i where i.merchant_id = m.id) as payouts
    from merchants m
  )
  select row(group_id, month, partner_id, count(*), min(approved_on), max(approved_on), coalesce(sum(net), 0.00),
             coalesce(sum(payouts), 0.00),
             array(select d2.closed_on from deal d2 where d2.group_id = deal.group_id and d2.month = deal.month
                     and d2.closed_on is not null order by 1))::text as r
  from deal group by group_id, month, partner_id`;

/** Each group's deals of all months, from the merchants and their income rows (not from bi_group_deals). */
const EXPECTED_BI_TOTALS = sql`
  with deal as (
    select m.group_id, m.partner_id, m.approved_on, m.closed_on,
           (select sum(net) from merchant_income i where i.merchant_id = m.id) as net,
           (select sum(payouts) from merchant_income i where i.merchant_id = m.id) as payouts
    from merchants m
  )
  select row(group_id, min(partner_id), date_trunc('month', min(approved_on))::date,
             date_trunc('month', max(approved_on))::date, count(*), min(approved_on), max(approved_on),
             coalesce(sum(net), 0.00), coalesce(sum(payouts), 0.00),
             array(select d2.closed_on from deal d2 where d2.group_id = deal.group_id and d2.closed_on is not null
                   order by 1),
             (select array_agg(month - date '2000-01-01' order by month)::text from (
                select date_trunc('month', d2.approved_on)::date as month from deal d2
                where d2.group_id = deal.group_id group by 1) x),
             (select array_agg(n order by month)::text from (
                select date_trunc('month', d2.approved_on)::date as month, count(*) as n from deal d2
                where d2.group_id = deal.group_id group by 1) x))::text as r
  from deal group by group_id`;

const EXPECTED_BI_STATES = sql`
  select row(m.group_id, m.state, m.partner_id, count(*),
             array(select c.closed_on from merchants c where c.group_id = m.group_id and c.state = m.state
                     and c.closed_on is not null order by 1))::text as r
  from merchants m where m.state is not null group by m.group_id, m.state, m.partner_id`;

/** Per group and day: merchants whose open span [approved, closed) starts and ends that day. */
const EXPECTED_BI_OPENINGS = sql`
  with spans as (
    select group_id, partner_id, approved_on, closed_on from merchants
    where closed_on is null or closed_on > approved_on
  ), days as (
    select group_id, partner_id, approved_on as day from spans
    union select group_id, partner_id, closed_on from spans where closed_on is not null
  )
  select row(d.group_id, d.day, d.partner_id,
             (select count(*) from spans s where s.group_id = d.group_id and s.approved_on = d.day),
             (select count(*) from spans s where s.group_id = d.group_id and s.closed_on = d.day))::text as r
  from days d`;

/**
 * Per ISO, as of the day its row says it is of (today for an ISO without a row): deals, deal ages in whole months
 * by age() (buckets 0–6 m, 6–12 m, 1–2 y, 2–3 y, > 3 y), banks and profiles, in bi_iso_info's column order. Each
 * row is checked as of its own day, not of the clock's: a run that crosses midnight leaves the rows no change
 * touched of the day before, which is what they should be (the answer reads the records while any row is of an
 * earlier day, and the hourly job rebuilds them).
 */
const EXPECTED_ISO_INFO = sql`
  with m as (
    select m.*, coalesce(k.as_of, current_date) as today
    from merchants m left join bi_iso_info k on k.partner_id = m.partner_id
  ), d as (
    select partner_id, today, approved_on, closed_on, sponsor_bank, profile,
           (closed_on is null or closed_on > today) as open,
           extract(year from age(coalesce(closed_on, today), approved_on)) * 12
             + extract(month from age(coalesce(closed_on, today), approved_on)) as months_to_close,
           extract(year from age(today, approved_on)) * 12
             + extract(month from age(today, approved_on)) as months_to_today
    from m
  ), b as (
    select *, case when open then months_to_today else months_to_close end as months from d
  )
  select row(partner_id, today, count(*), min(approved_on), max(approved_on),
             count(*) filter (where open), count(*) filter (where not open),
             today - min(approved_on) filter (where open), today - max(approved_on) filter (where open),
             max(closed_on - approved_on) filter (where not open), min(closed_on - approved_on) filter (where not open),
             concat_ws(',', count(*) filter (where open and months < 6),
               count(*) filter (where open and months >= 6 and months < 12),
               count(*) filter (where open and months >= 12 and months < 24),
               count(*) filter (where open and months >= 24 and months < 36),
               count(*) filter (where open and months >= 36)),
             concat_ws(',', count(*) filter (where not open and months < 6),
               count(*) filter (where not open and months >= 6 and months < 12),
               count(*) filter (where not open and months >= 12 and months < 24),
               count(*) filter (where not open and months >= 24 and months < 36),
               count(*) filter (where not open and months >= 36)),
             count(*) filter (where sponsor_bank = 'CBCAL'), count(*) filter (where sponsor_bank = 'Esquire'),
             count(*) filter (where sponsor_bank = 'Chesapeake'), count(*) filter (where profile = 'PayLo'),
             count(*) filter (where profile = 'Traditional'), count(*) filter (where profile = 'High Risk'),
             count(*) filter (where profile is distinct from 'PayLo' and profile is distinct from 'Traditional'
                                    and profile is distinct from 'High Risk'))::text as r
  from b group by partner_id, today`;

/** Rows only in the expected set, and rows only in the derived table. */
async function differences(
  expected: ReturnType<typeof sql>,
  table:
    | 'selfserve_rows'
    | 'activity_rollup'
    | 'processing_daily'
    | 'deal_income'
    | 'bi_group_daily'
    | 'bi_group_monthly'
    | 'bi_group_income'
    | 'bi_group_deals'
    | 'bi_group_totals'
    | 'bi_group_states'
    | 'bi_group_openings'
    | 'bi_iso_info',
) {
  // bi_iso_info's figures without the JSON kept beside them (a row trigger writes it from them; bi.test.ts checks
  // the answer it makes against the raw rows). The group rollups' rows without the count and last day of their
  // closing days, which the database writes from the days (generated columns).
  const rows: Partial<Record<typeof table, string>> = {
    bi_iso_info: `row(x.partner_id, x.as_of, x.approved_deals, x.first, x.last, x.open_deals, x.closed_deals,
          x.open_longest, x.open_shortest, x.closed_longest, x.closed_shortest, x.open_age_set, x.closed_age_set,
          x.cbcal, x.esquire, x.chesapeake, x.pl_count, x.tr_count, x.hr_count, x.ns_count)`,
    bi_group_deals:
      'row(x.group_id, x.month, x.partner_id, x.approved, x.first, x.last, x.net, x.payouts, x.closings)',
    bi_group_totals: `row(x.group_id, x.partner_id, x.first_month, x.last_month, x.approved, x.first, x.last, x.net,
          x.payouts, x.closings, x.approval_months, x.approval_counts)`,
    bi_group_states: 'row(x.group_id, x.state, x.partner_id, x.merchants, x.closings)',
  };
  const row = rows[table] ? sql.raw(rows[table]) : sql`x`;
  return one<{ missing: number; extra: number }>(sql`
    with e as (${expected}), d as (select ${row}::text as r from ${sql.table(table)} x)
    select (select count(*) from (select r from e except all select r from d) a) as missing,
           (select count(*) from (select r from d except all select r from e) b) as extra`);
}

/**
 * Inside the daily window a merchant-month is the sum of its days: every merchant-month with days has that
 * row, and a month row of the window without days is zero.
 */
async function monthlyDifferences() {
  return one<{ wrong: number; nonzero: number }>(sql`
    with days as (
      select merchant_id, date_trunc('month', day)::date as month, sum(volume) as volume, sum(transactions) as transactions,
             sum(chargeback_volume) as cbv, sum(chargebacks) as cb, sum(refund_volume) as rv, sum(refunds) as rf
      from merchant_daily group by 1, 2
    )
    select
      (select count(*) from days d left join merchant_monthly a on a.merchant_id = d.merchant_id and a.month = d.month
        where a.merchant_id is null
           or row(a.volume, a.transactions, a.chargeback_volume, a.chargebacks, a.refund_volume, a.refunds)::text
              <> row(d.volume, d.transactions::int, d.cbv, d.cb::int, d.rv, d.rf::int)::text) as wrong,
      (select count(*) from merchant_monthly a
        where a.month >= (select date_trunc('month', min(day)) from merchant_daily)
          and not exists (select 1 from days d where d.merchant_id = a.merchant_id and d.month = a.month)
          and (a.volume, a.transactions, a.chargeback_volume, a.chargebacks, a.refund_volume, a.refunds)
              <> (0, 0, 0, 0, 0, 0)) as nonzero`);
}

async function inStep() {
  return {
    merchant_monthly: await monthlyDifferences(),
    selfserve_rows: await differences(EXPECTED_SELFSERVE, 'selfserve_rows'),
    activity_rollup: await differences(EXPECTED_ROLLUP, 'activity_rollup'),
    processing_daily: await differences(EXPECTED_PROCESSING_DAILY, 'processing_daily'),
    deal_income: await differences(EXPECTED_DEAL_INCOME, 'deal_income'),
    bi_group_daily: await differences(expectedBiActivity('merchant_daily', 'day'), 'bi_group_daily'),
    bi_group_monthly: await differences(expectedBiActivity('merchant_monthly', 'month'), 'bi_group_monthly'),
    bi_group_income: await differences(EXPECTED_BI_INCOME, 'bi_group_income'),
    bi_group_deals: await differences(EXPECTED_BI_DEALS, 'bi_group_deals'),
    bi_group_totals: await differences(EXPECTED_BI_TOTALS, 'bi_group_totals'),
    bi_group_states: await differences(EXPECTED_BI_STATES, 'bi_group_states'),
    bi_group_openings: await differences(EXPECTED_BI_OPENINGS, 'bi_group_openings'),
    bi_iso_info: await differences(EXPECTED_ISO_INFO, 'bi_iso_info'),
  };
}
const IN_STEP = {
  merchant_monthly: { wrong: 0, nonzero: 0 },
  selfserve_rows: { missing: 0, extra: 0 },
  activity_rollup: { missing: 0, extra: 0 },
  processing_daily: { missing: 0, extra: 0 },
  deal_income: { missing: 0, extra: 0 },
  bi_group_daily: { missing: 0, extra: 0 },
  bi_group_monthly: { missing: 0, extra: 0 },
  bi_group_income: { missing: 0, extra: 0 },
  bi_group_deals: { missing: 0, extra: 0 },
  bi_group_totals: { missing: 0, extra: 0 },
  bi_group_states: { missing: 0, extra: 0 },
  bi_group_openings: { missing: 0, extra: 0 },
  bi_iso_info: { missing: 0, extra: 0 },
};

/** A fingerprint of the derived tables' contents. */
async function fingerprint() {
  return one<{ selfserve: string; rollup: string; monthly: string }>(sql`
    select (select md5(string_agg(s::text, '|' order by month, merchant_id)) from selfserve_rows s) as selfserve,
           (select md5(string_agg(r::text, '|' order by dimension, value, month)) from activity_rollup r) as rollup,
           (select md5(string_agg(a::text, '|' order by merchant_id, month)) from merchant_monthly a) as monthly`);
}

const stale = (now: Awaited<ReturnType<typeof inStep>>) => JSON.stringify(now) !== JSON.stringify(IN_STEP);

/** Edits a record with plain SQL, checks the derived data is now stale (if anything reads it), refreshes it. */
async function editThenRefresh(edit: ReturnType<typeof sql>, change: SourceChange, readByDerived = true) {
  await edit.execute(t.db);
  expect(stale(await inStep())).toBe(readByDerived);
  await refreshDerived(t.db, change);
  expect(await inStep()).toEqual(IN_STEP);
}

describe('derived data', () => {
  it('is in step with the records after the seed, and a full rebuild changes nothing', async () => {
    expect(await inStep()).toEqual(IN_STEP);
    const seeded = await fingerprint();
    await rebuildAll(t.db);
    expect(await fingerprint()).toEqual(seeded);
  });

  it('a refresh naming no rows changes nothing, even when the derived data is stale', async () => {
    const row = await one<{ merchant_id: number; month: string }>(
      sql`select merchant_id, month from merchant_monthly where month < (select min(day) from merchant_daily)
          order by month desc, merchant_id limit 1`,
    );
    await sql`update merchant_monthly set volume = volume + 1 where merchant_id = ${row.merchant_id} and month = ${row.month}`.execute(
      t.db,
    );
    const before = await fingerprint();
    await refreshDerived(t.db);
    await refreshDerived(
      t.db,
      { table: 'merchants', ids: [] },
      { table: 'partners', ids: [] },
      { table: 'merchant_monthly', months: [] },
      { table: 'merchant_income', months: [row.month], merchantIds: [] },
      { table: 'merchant_daily', days: [] },
    );
    expect(await fingerprint()).toEqual(before);
    expect(stale(await inStep())).toBe(true);
    await refreshDerived(t.db, {
      table: 'merchant_monthly',
      months: [row.month],
      merchantIds: [row.merchant_id],
    });
    expect(await inStep()).toEqual(IN_STEP);
  });

  it('follows a daily row: edited, deleted, added, and a whole day of every merchant', async () => {
    const d = await one<{ merchant_id: number; day: string }>(
      sql`select merchant_id, day from merchant_daily where extract(day from day) between 3 and 25
          order by volume desc, merchant_id, day limit 1`,
    );
    await editThenRefresh(
      sql`update merchant_daily set volume = volume + 123.45, transactions = transactions + 7, refunds = refunds + 1
          where merchant_id = ${d.merchant_id} and day = ${d.day}`,
      { table: 'merchant_daily', days: [d.day], merchantIds: [d.merchant_id] },
    );
    await editThenRefresh(
      sql`delete from merchant_daily where merchant_id = ${d.merchant_id} and day = ${d.day}`,
      { table: 'merchant_daily', days: [d.day], merchantIds: [d.merchant_id] },
    );
    await editThenRefresh(
      sql`insert into merchant_daily (merchant_id, partner_id, day, volume, transactions, chargeback_volume, chargebacks,
            refund_volume, refunds)
          select id, partner_id, ${d.day}, 1000.10, 12, 20.05, 1, 0.00, 0 from merchants where id = ${d.merchant_id}`,
      { table: 'merchant_daily', days: [d.day], merchantIds: [d.merchant_id] },
    );
    // A day corrected for everyone, reported without naming the merchants.
    await editThenRefresh(
      sql`update merchant_daily set volume = round(volume * 1.01, 2), chargebacks = chargebacks + 1 where day = ${d.day}`,
      { table: 'merchant_daily', days: [d.day] },
    );
  });

  it('a month left without days keeps its merchant-month at zero', async () => {
    const c = await one<{ merchant_id: number; month: string }>(
      sql`select merchant_id, date_trunc('month', day)::date::text as month from merchant_daily
          group by 1, 2 having sum(volume) > 0 order by 2 desc, 1 limit 1`,
    );
    const days = await sql<{ day: string }>`
      select day from merchant_daily where merchant_id = ${c.merchant_id} and day >= ${c.month}::date
        and day < (${c.month}::date + interval '1 month')`.execute(t.db);
    await editThenRefresh(
      sql`delete from merchant_daily where merchant_id = ${c.merchant_id} and day >= ${c.month}::date
            and day < (${c.month}::date + interval '1 month')`,
      { table: 'merchant_daily', days: days.rows.map((r) => r.day), merchantIds: [c.merchant_id] },
    );
    const row = await one<{ volume: string }>(
      sql`select volume from merchant_monthly where merchant_id = ${c.merchant_id} and month = ${c.month}`,
    );
    expect(row.volume).toBe('0.00');
  });

  it('follows a monthly row before the daily window, and a month imported whole', async () => {
    const m = await one<{ merchant_id: number; month: string }>(
      sql`select merchant_id, month from merchant_monthly
          where month < (select min(day) from merchant_daily) and volume > 0 order by month desc, merchant_id limit 1`,
    );
    await editThenRefresh(
      sql`update merchant_monthly set volume = volume - 0.01, chargeback_volume = chargeback_volume + 99.99
          where merchant_id = ${m.merchant_id} and month = ${m.month}`,
      { table: 'merchant_monthly', months: [m.month], merchantIds: [m.merchant_id] },
    );
    await editThenRefresh(
      sql`delete from merchant_monthly where merchant_id = ${m.merchant_id} and month = ${m.month}`,
      { table: 'merchant_monthly', months: [m.month], merchantIds: [m.merchant_id] },
    );
    await editThenRefresh(
      sql`update merchant_monthly set transactions = transactions + 3 where month = ${m.month}`,
      { table: 'merchant_monthly', months: [m.month] },
    );
  });

  it('follows an income row', async () => {
    const i = await one<{ merchant_id: number; month: string }>(
      sql`select i.merchant_id, i.month from merchant_income i join merchant_monthly a using (merchant_id, month)
          order by i.month desc, i.merchant_id limit 1 offset 7`,
    );
    await editThenRefresh(
      sql`update merchant_income set net = net + 10.07, gross = gross + 10.07
          where merchant_id = ${i.merchant_id} and month = ${i.month}`,
      { table: 'merchant_income', months: [i.month], merchantIds: [i.merchant_id] },
    );
    await editThenRefresh(
      sql`delete from merchant_income where merchant_id = ${i.merchant_id} and month = ${i.month}`,
      { table: 'merchant_income', months: [i.month], merchantIds: [i.merchant_id] },
    );
  });

  it('residual, adjustment and group edits feed no derived table', async () => {
    await editThenRefresh(
      sql`update residuals set total_net = total_net + 1, total_payout = total_payout - 1
          where id = (select min(id) from residuals)`,
      { table: 'residuals' },
      false,
    );
    await editThenRefresh(
      sql`update adjustments set amount = amount + 5 where id = (select min(id) from adjustments)`,
      { table: 'adjustments' },
      false,
    );
    await editThenRefresh(
      sql`update groups set rev_share = 0.5, group_name = group_name || ' II' where id = (select min(id) from groups)`,
      { table: 'groups' },
      false,
    );
  });

  it('follows a merchant’s fields: profile, bank, MCC, dates, names, ISO', async () => {
    const ids = await sql<{ id: number }>`
      select merchant_id as id from merchant_monthly group by 1 having count(*) > 12 order by 1 limit 3`.execute(
      t.db,
    );
    const [a, b, c] = ids.rows.map((r) => r.id) as [number, number, number];
    await editThenRefresh(
      sql`update merchants set profile = case when profile = 'High Risk' then 'PayLo' else 'High Risk' end,
            sponsor_bank = case when sponsor_bank = 'PPS' then 'Esquire' else 'PPS' end,
            mcc = (select min(code) from mcc_codes where code <> merchants.mcc) where id = ${a}`,
      { table: 'merchants', ids: [a] },
    );
    await editThenRefresh(
      sql`update merchants set opened_on = opened_on - 400, dba = 'Renamed ' || dba,
            closed_on = (select max(month) - 20 from merchant_monthly where merchant_id = ${b}) where id = ${b}`,
      { table: 'merchants', ids: [b] },
    );
    const other = await one<{ partner_id: number; group_id: string }>(
      sql`select g.partner_id, g.group_id from groups g
          where g.partner_id <> (select partner_id from merchants where id = ${c}) order by g.id limit 1`,
    );
    await editThenRefresh(
      sql`update merchants set partner_id = ${other.partner_id}, group_id = ${other.group_id} where id = ${c}`,
      { table: 'merchants', ids: [c] },
    );
  });

  it('follows a partner’s name; its flags feed nothing', async () => {
    const p = await one<{ id: number }>(
      sql`select partner_id as id from merchants group by 1 order by count(*) desc, 1 limit 1 offset 2`,
    );
    await editThenRefresh(sql`update partners set account_name = account_name || ' LLC' where id = ${p.id}`, {
      table: 'partners',
      ids: [p.id],
    });
    await editThenRefresh(
      sql`update partners set in_house = not in_house, status = 'Inactive' where id = ${p.id}`,
      { table: 'partners', ids: [p.id] },
      false,
    );
  });

  it('refreshes inside the caller’s transaction: a rollback takes the refresh with it', async () => {
    const before = await fingerprint();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`update merchant_monthly set volume = volume + 1 where month = (select max(month) from merchant_monthly)`.execute(
          trx,
        );
        await refreshDerived(trx, {
          table: 'merchant_monthly',
          months: [
            (await one<{ m: string }>(sql`select max(month)::text as m from merchant_monthly`, trx)).m,
          ],
        });
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect(await fingerprint()).toEqual(before);
  });

  it('two refreshes of the same merchant-month at once leave the rollup in step', async () => {
    const c = await one<{ merchant_id: number; month: string }>(
      sql`select merchant_id, month::text from merchant_monthly where month < (select min(day) from merchant_daily)
          order by month desc, merchant_id limit 1 offset 3`,
    );
    const change: SourceChange = {
      table: 'merchant_monthly',
      months: [c.month],
      merchantIds: [c.merchant_id],
    };
    const bump = (trx: Db) =>
      sql`update merchant_monthly set volume = volume + 1.25 where merchant_id = ${c.merchant_id} and month = ${c.month}`.execute(
        trx,
      );
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // The first edits the figures, lets the second edit the merchant, then refreshes and holds its refresh
    // uncommitted while the second refreshes: without a queue both would subtract the same last count, and a
    // writer that raised answer versions before it queued would wait on the first in a circle (on PostgreSQL;
    // PGlite runs them in turn).
    await Promise.all([
      t.db.transaction().execute(async (trx) => {
        await bump(trx);
        await pause(300);
        await refreshDerived(trx, change);
        await pause(300);
      }),
      pause(100).then(() =>
        t.db.transaction().execute(async (trx) => {
          await sql`update merchants set profile = case when profile = 'PayLo' then 'Traditional' else 'PayLo' end
                    where id = ${c.merchant_id}`.execute(trx);
          await refreshDerived(trx, { table: 'merchants', ids: [c.merchant_id] });
        }),
      ),
    ]);
    expect(await inStep()).toEqual(IN_STEP);
  });

  it('queues every writer of a kept answer’s tables and of derived data’s sources before its first row', async () => {
    const { rows } = await sql<{ table: string; fn: string; before: boolean }>`
      select c.relname as "table", p.proname as fn, (g.tgtype & 2) <> 0 as before from pg_trigger g
      join pg_class c on c.oid = g.tgrelid join pg_proc p on p.oid = g.tgfoid
      where not g.tgisinternal and g.tgenabled = 'O'`.execute(t.db);
    const queued = new Set(
      rows.filter((r) => r.fn === 'paydesk_queue_writes' && r.before).map((r) => r.table),
    );
    // Found from the functions' own text, not from the migration's list.
    const fns = await sql<{ fn: string }>`select proname as fn from pg_proc
      where prosrc ilike '%answer_versions%' or prosrc ilike '%answer_part_versions%'`.execute(t.db);
    const raising = new Set(fns.rows.map((r) => r.fn));
    const versioned = new Set(rows.filter((r) => raising.has(r.fn)).map((r) => r.table));
    expect(versioned.size).toBeGreaterThan(10);
    for (const table of [...versioned, ...SOURCE_TABLES]) expect(queued, table).toContain(table);
  });

  it('refuses to run under the ISO role rather than refresh only what the ISO sees', async () => {
    const p = await one<{ id: number }>(sql`select min(id) as id from partners`);
    const scoped = (work: (trx: Db) => Promise<void>) =>
      t.db.transaction().execute(async (trx) => {
        await scopeTransaction(trx, p.id);
        await work(trx);
      });
    await expect(scoped((trx) => refreshDerived(trx, { table: 'partners', ids: [p.id] }))).rejects.toThrow(
      /outside ISO scoping/,
    );
    await expect(scoped((trx) => rebuildAll(trx))).rejects.toThrow(/outside ISO scoping/);
    // Nothing to refresh is nothing to refuse.
    await expect(
      scoped((trx) => refreshDerived(trx, { table: 'partners', ids: [] })),
    ).resolves.toBeUndefined();
  });
});

describe('moving a merchant to another ISO', () => {
  const tables = [...MERCHANT_ISO_COPIES, 'selfserve_rows'] as const;

  /** The merchant's rows each table shows an ISO-bound request of this ISO. */
  async function seenBy(isoId: number, merchantId: number) {
    return t.db.transaction().execute(async (trx) => {
      await scopeTransaction(trx, isoId);
      const counts: Record<string, number> = {};
      for (const table of tables) {
        counts[table] = (
          await one<{ n: number }>(
            sql`select count(*) as n from ${sql.table(table)} where merchant_id = ${merchantId}`,
            trx,
          )
        ).n;
      }
      counts.merchants = (
        await one<{ n: number }>(sql`select count(*) as n from merchants where id = ${merchantId}`, trx)
      ).n;
      return counts;
    });
  }

  it('moves its whole history: the new ISO’s users see it, the old ISO’s do not', async () => {
    const summit = await one<{ id: number }>(
      sql`select id from partners where account_name = 'Summit Payment Group'`,
    );
    const lone = await one<{ id: number; group_id: string }>(
      sql`select p.id, min(g.group_id) as group_id from partners p join groups g on g.partner_id = p.id
          where p.account_name = 'Lone Star Processing' group by p.id`,
    );
    const merchant = await one<{ id: number; mid: string }>(sql`
      select m.id, m.mid from merchants m
      where m.partner_id = ${summit.id}
        and exists (select 1 from residuals r where r.merchant_id = m.id)
        and exists (select 1 from merchant_daily d where d.merchant_id = m.id)
        and exists (select 1 from applications a where a.merchant_id = m.id)
      order by (select count(*) from adjustments j where j.merchant_id = m.id) desc, m.id limit 1`);
    const history = await seenBy(summit.id, merchant.id);
    for (const table of [...tables, 'merchants']) expect(history[table], table).toBeGreaterThan(0);
    const none = Object.fromEntries(Object.keys(history).map((k) => [k, 0]));
    expect(await seenBy(lone.id, merchant.id)).toEqual(none);

    // A group of another ISO is refused, and changes nothing.
    const summitGroup = await one<{ group_id: string }>(
      sql`select min(group_id) as group_id from groups where partner_id = ${summit.id}`,
    );
    await expect(
      moveMerchant(t.db, { merchantId: merchant.id, partnerId: lone.id, groupId: summitGroup.group_id }),
    ).rejects.toThrow(/does not belong/);
    expect(await seenBy(summit.id, merchant.id)).toEqual(history);

    await moveMerchant(t.db, { merchantId: merchant.id, partnerId: lone.id, groupId: lone.group_id });
    expect(await seenBy(lone.id, merchant.id)).toEqual(history);
    expect(await seenBy(summit.id, merchant.id)).toEqual(none);
    expect(await inStep()).toEqual(IN_STEP);

    // Through the API: the Self Serve search of each ISO's user.
    const month = await one<{ m: string }>(
      sql`select max(month)::text as m from selfserve_rows where merchant_id = ${merchant.id}`,
    );
    await addUser(t.db, 'rep@lonestar.example', 'sales', { partnerId: lone.id });
    const newIso = new Client(t.app);
    await newIso.signin('rep@lonestar.example');
    const oldIso = new Client(t.app);
    await oldIso.signin('partner@summitpayments.example');
    const search = async (c: Client) => {
      const res = await c.post('/api/searchselfserve', { dt: month.m, val: merchant.mid });
      expect(res.statusCode).toBe(200);
      return (res.json() as { mid: string }[]).map((r) => r.mid);
    };
    expect(await search(newIso)).toContain(merchant.mid);
    expect(await search(oldIso)).not.toContain(merchant.mid);
  });
});

describe('derived data and the live demo', () => {
  it('its catch-up (new days, applications approved into merchants, closures, income) leaves every table in step', async () => {
    const state = await one<{ caught_up_to: Date }>(sql`select caught_up_to from demo_state`);
    const now = new Date(new Date(state.caught_up_to).getTime() + 2 * 86_400_000);
    const report = await t.db.transaction().execute((trx) => catchUpLiveDemo(trx, now));
    expect(report.outcome).toBe('caught_up');
    expect(report.activityRows + report.approvals + report.closures).toBeGreaterThan(0);
    expect(await inStep()).toEqual(IN_STEP);
  });
});

describe('migrations', () => {
  it('never import application code: each keeps the SQL it ran', () => {
    const dir = path.join(__dirname, '../src/db/migrations');
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      // Import statements only (SQL such as `is distinct from 'uploaded'` is not an import).
      const from = [...text.matchAll(/^import [^;]*? from '([^']+)'/gm)].map((m) => m[1] ?? '');
      expect(from.length, `${file} imports`).toBeGreaterThan(0);
      for (const source of from) expect(source, `${file} imports ${source}`).toMatch(/^(kysely|\.\/[\w-]+)$/);
    }
  });
});
