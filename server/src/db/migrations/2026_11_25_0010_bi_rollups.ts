import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * Business Intelligence rollups (docs/bi.md, db/derived.ts keeps them): the executive and ISO analytics calls
 * take partner groups, so their figures are summed per group ahead of time.
 * - bi_group_daily / bi_group_monthly: a group's activity per day / month, in total and per profile.
 * - bi_group_income: a group's income per month.
 * - bi_group_deals: a group's deals per approval month (first, last, count, whole-history income) with the
 *   closing days of those closed, so "open today" stays exact as the days pass.
 * - bi_group_states: a group's merchants per state, the same way, for the map.
 * - bi_group_openings: a group's merchants approved and closed per day (a merchant closed on or before its
 *   approval day is never open: neither), whose running sum is its open merchants at each day's end.
 */
const PROFILE_MEASURES = ['tr', 'pl', 'hr', 'ns']
  .flatMap((p) => [`${p}_active`, `${p}_transactions`, `${p}_chargebacks`, `${p}_refunds`])
  .map((c) => `${c} bigint not null`)
  .join(',\n');

const ACTIVITY = `partner_id integer not null,
       volume numeric not null, transactions bigint not null, chargeback_volume numeric not null,
       chargebacks bigint not null, refund_volume numeric not null, refunds bigint not null, active bigint not null,
       ${PROFILE_MEASURES}`;

const OPENINGS = `
  insert into bi_group_openings (group_id, day, partner_id, opened, closed)
  select x.group_id, x.day, x.partner_id, sum(x.opened), sum(x.closed)
  from (
    select m.group_id, m.approved_on as day, m.partner_id, 1 as opened, 0 as closed from merchants m
    where m.closed_on is null or m.closed_on > m.approved_on
    union all
    select m.group_id, m.closed_on, m.partner_id, 0, 1 from merchants m where m.closed_on > m.approved_on
  ) x
  group by 1, 2, 3`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table bi_group_daily (group_id text not null, day date not null, ${ACTIVITY}, primary key (group_id, day))`,
    `create table bi_group_monthly (group_id text not null, month date not null, ${ACTIVITY},
       primary key (group_id, month))`,
    `create table bi_group_income (
       group_id text not null, month date not null, partner_id integer not null, gross numeric not null,
       net numeric not null, expenses numeric not null, payouts numeric not null, merchants bigint not null,
       primary key (group_id, month))`,
    `create table bi_group_deals (
       group_id text not null, month date not null, partner_id integer not null, approved bigint not null,
       first date not null, last date not null, net numeric not null, payouts numeric not null,
       closings date[] not null, primary key (group_id, month))`,
    `create table bi_group_openings (
       group_id text not null, day date not null, partner_id integer not null, opened bigint not null,
       closed bigint not null, primary key (group_id, day))`,
    `create table bi_group_states (
       group_id text not null, state text not null, partner_id integer not null, merchants bigint not null,
       closings date[] not null, primary key (group_id, state))`,
  ]);
  for (const t of [
    'bi_group_daily',
    'bi_group_monthly',
    'bi_group_income',
    'bi_group_deals',
    'bi_group_states',
    'bi_group_openings',
  ]) {
    await scopeToIso(db, t);
  }
  const profiles = [
    ['tr', "= 'Traditional'"],
    ['pl', "= 'PayLo'"],
    ['hr', "= 'High Risk'"],
    ['ns', "not in ('Traditional', 'PayLo', 'High Risk')"],
  ];
  const activity = (table: string, period: string, source: string) => `
    insert into ${table} (group_id, ${period}, partner_id, volume, transactions, chargeback_volume, chargebacks,
      refund_volume, refunds, active, ${profiles.flatMap(([p]) => [`${p}_active`, `${p}_transactions`, `${p}_chargebacks`, `${p}_refunds`]).join(', ')})
    select m.group_id, a.${period}, m.partner_id, sum(a.volume), sum(a.transactions), sum(a.chargeback_volume),
           sum(a.chargebacks), sum(a.refund_volume), sum(a.refunds), count(*) filter (where a.transactions > 0),
           ${profiles
             .flatMap(([, test]) => [
               `count(*) filter (where a.transactions > 0 and m.profile ${test})`,
               `coalesce(sum(a.transactions) filter (where m.profile ${test}), 0)`,
               `coalesce(sum(a.chargebacks) filter (where m.profile ${test}), 0)`,
               `coalesce(sum(a.refunds) filter (where m.profile ${test}), 0)`,
             ])
             .join(', ')}
    from ${source} a join merchants m on m.id = a.merchant_id
    group by m.group_id, a.${period}, m.partner_id`;
  const closings = `coalesce(array_agg(m.closed_on order by m.closed_on) filter (where m.closed_on is not null), '{}')`;
  await run(db, [
    activity('bi_group_daily', 'day', 'merchant_daily'),
    activity('bi_group_monthly', 'month', 'merchant_monthly'),
    `insert into bi_group_income (group_id, month, partner_id, gross, net, expenses, payouts, merchants)
     select m.group_id, i.month, m.partner_id, sum(i.gross), sum(i.net), sum(i.expenses), sum(i.payouts), count(*)
     from merchant_income i join merchants m on m.id = i.merchant_id
     group by m.group_id, i.month, m.partner_id`,
    `insert into bi_group_deals (group_id, month, partner_id, approved, first, last, net, payouts, closings)
     select m.group_id, date_trunc('month', m.approved_on)::date, m.partner_id, count(*), min(m.approved_on),
            max(m.approved_on), coalesce(sum(e.net), 0), coalesce(sum(e.payouts), 0), ${closings}
     from merchants m left join deal_income e on e.merchant_id = m.id
     group by 1, 2, 3`,
    `insert into bi_group_states (group_id, state, partner_id, merchants, closings)
     select m.group_id, m.state, m.partner_id, count(*), ${closings}
     from merchants m where m.state is not null
     group by 1, 2, 3`,
    OPENINGS,
  ]);
}
