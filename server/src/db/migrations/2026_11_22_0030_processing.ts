import type { Kysely } from 'kysely';
import { hideFromIsoRole, ISO_ROLE, run } from './helpers';

/**
 * The processing dashboard (spec document 2 §2.8) and its scheduled reports:
 * - processing_daily: each day's volume and transactions, per ISO (partner_id) and in total (partner_id 0),
 *   derived from merchant_daily (db/derived.ts keeps it in step), so the daily chart reads ~30 rows instead of
 *   summing a month of merchant-days. An ISO-bound user reads their ISO's rows only; the totals are staff's.
 * - processing_budgets gains who changed a budget last; partner staff no longer read it.
 * - report_subscriptions: a user's monthly or quarterly processing report, sent on the first business day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table processing_daily (
       day date not null,
       partner_id integer not null,
       volume numeric(16, 2) not null,
       transactions bigint not null,
       primary key (partner_id, day)
     )`,
    `alter table processing_daily enable row level security`,
    `create policy processing_daily_iso_scope on processing_daily to ${ISO_ROLE}
       using (partner_id = current_setting('paydesk.iso_id')::int)`,
    `grant select on processing_daily to ${ISO_ROLE}`,
    `create table report_subscriptions (
       id serial primary key,
       user_id integer not null references users (id) on delete cascade,
       frequency text not null check (frequency in ('monthly', 'quarterly')),
       created_at timestamptz not null default now(),
       last_sent_at timestamptz,
       unique (user_id, frequency)
     )`,
    // Activations per month of a year (/api/getActivation) read a range of this instead of every merchant.
    'create index merchants_activated on merchants (activated_on) where activated_on is not null',
    // Who set a budget last (the audit log holds every change).
    `alter table processing_budgets add column updated_by text`,
    `alter table processing_budgets add column updated_at timestamptz`,
  ]);
  // Budgets are the processor's own targets, not an ISO's: partner staff see volume only.
  await hideFromIsoRole(db, ['report_subscriptions', 'processing_budgets']);
  // A database that already has daily activity gets its rows now (this migration's own copy of the SQL).
  await run(db, [
    `insert into processing_daily (day, partner_id, volume, transactions)
     select d.day, m.partner_id, sum(d.volume), sum(d.transactions)
      from merchant_daily d join merchants m on m.id = d.merchant_id group by d.day, m.partner_id
     union all
     select day, 0, sum(volume), sum(transactions) from merchant_daily group by day`,
  ]);
}
