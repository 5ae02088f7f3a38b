import type { Kysely } from 'kysely';
import { fillBiRollups } from '../derived';
import { run, scopeToIso } from './helpers';

/**
 * Business Intelligence rollups (docs/bi.md, db/derived.ts keeps them): the executive and ISO analytics calls
 * take partner groups, so their figures are summed per group ahead of time.
 * - bi_group_daily / bi_group_monthly: a group's activity per day / month, in total and per profile.
 * - bi_group_income: a group's income per month.
 * - bi_group_deals: a group's deals per approval month (first, last, count, whole-history income) with the
 *   closing days of those closed, so "open today" stays exact as the days pass.
 * - bi_group_states: a group's merchants per state, the same way, for the map.
 */
const PROFILE_MEASURES = ['tr', 'pl', 'hr', 'ns']
  .flatMap((p) => [`${p}_active`, `${p}_transactions`, `${p}_chargebacks`, `${p}_refunds`])
  .map((c) => `${c} bigint not null`)
  .join(',\n');

const ACTIVITY = `partner_id integer not null,
       volume numeric not null, transactions bigint not null, chargeback_volume numeric not null,
       chargebacks bigint not null, refund_volume numeric not null, refunds bigint not null, active bigint not null,
       ${PROFILE_MEASURES}`;

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
    `create table bi_group_states (
       group_id text not null, state text not null, partner_id integer not null, merchants bigint not null,
       closings date[] not null, primary key (group_id, state))`,
  ]);
  for (const t of ['bi_group_daily', 'bi_group_monthly', 'bi_group_income', 'bi_group_deals', 'bi_group_states']) {
    await scopeToIso(db, t);
  }
  await fillBiRollups(db as never);
}
