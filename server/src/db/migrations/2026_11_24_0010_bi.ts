import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * Business Intelligence (docs/bi.md). `deal_income`, derived (db/derived.ts): each merchant's income over its
 * whole history, so the ISO analytics stats add one row per deal instead of every merchant-month of income.
 * Indexes: merchants by group (the executive calls take group IDs; ISO analytics joins the chosen groups) and
 * by ISO in approval order (the stats' window of approvals).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table deal_income (
       merchant_id integer primary key references merchants (id),
       partner_id integer not null,
       net numeric(14, 2) not null,
       payouts numeric(14, 2) not null,
       last_month date not null
     )`,
    'create index deal_income_partner on deal_income (partner_id)',
    `insert into deal_income (merchant_id, partner_id, net, payouts, last_month)
     select i.merchant_id, m.partner_id, sum(i.net), sum(i.payouts), max(i.month)
     from merchant_income i join merchants m on m.id = i.merchant_id
     group by i.merchant_id, m.partner_id`,
    'create index merchants_group on merchants (group_id)',
    'create index merchants_partner_approved on merchants (partner_id, approved_on)',
  ]);
  await scopeToIso(db, 'deal_income');
}
