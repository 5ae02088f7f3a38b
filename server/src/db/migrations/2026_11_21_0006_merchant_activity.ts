import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/** The measures of merchant activity, the same per day and per month. */
const ACTIVITY_MEASURES = `volume numeric(14, 2) not null,
       transactions integer not null,
       chargeback_volume numeric(12, 2) not null,
       chargebacks integer not null,
       refund_volume numeric(12, 2) not null,
       refunds integer not null`;

/**
 * Merchant activity per day (the recent window) and per month (all history); inside the daily window a
 * month is the sum of its days. Scoped to the ISO by row-level security.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    // Activity: daily rows for the recent window, monthly rows for all history. Where both exist, a month's
    // row is the sum of its days (the seed and imports keep it so).
    `create table merchant_daily (
       merchant_id integer not null references merchants (id),
       partner_id integer not null,
       day date not null,
       ${ACTIVITY_MEASURES},
       primary key (merchant_id, day)
     )`,
    'create index merchant_daily_day on merchant_daily (day)',
    `create table merchant_monthly (
       merchant_id integer not null references merchants (id),
       partner_id integer not null,
       month date not null check (extract(day from month) = 1),
       ${ACTIVITY_MEASURES},
       primary key (merchant_id, month)
     )`,
    'create index merchant_monthly_month on merchant_monthly (month, volume desc)',
  ]);
  await scopeToIso(db, 'merchant_daily');
  await scopeToIso(db, 'merchant_monthly');
}
