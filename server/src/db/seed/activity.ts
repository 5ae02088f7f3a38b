import { sql } from 'kysely';
import type { Db } from '../connect';
import { days, noiseKey, noiseOf, uniform } from './sqlNoise';

/** Day-of-week factors, Sunday first: card volume dips on Sundays and peaks on Fridays. */
const DOW = [0.55, 0.92, 0.97, 1.0, 1.06, 1.28, 0.98];
/** Month factors, January first: the holiday season lifts November and December. */
const SEASON = [0.9, 0.88, 0.98, 0.99, 1.03, 1.02, 1.03, 1.02, 0.97, 1.0, 1.05, 1.16];

const arr = (xs: readonly number[]) => `array[${xs.map((x) => x.toFixed(2)).join(',')}]::float8[]`;

/**
 * Turns rows of (merchant_id, partner_id, <period>, ticket, cb_rate, refund_rate, vol, u2, u3, u4) into
 * the activity measures: transactions from volume and ticket, chargebacks and refunds from their rates.
 * `offset 0` computes each row's vol and uniforms once, where a flattened subquery would repeat them in every
 * measure that reads them.
 */
function measures(period: 'day' | 'month', raw: string): string {
  return `select merchant_id, partner_id, ${period}, round(vol::numeric, 2), txns,
           round((cbs * ticket * (0.7 + 0.6 * u3))::numeric, 2), cbs,
           round((refs * ticket * (0.6 + 0.8 * u4))::numeric, 2), refs
    from (
      select *, greatest(0, round(vol / ticket * (0.9 + 0.2 * u2)))::int as txns,
             floor(vol / ticket * cb_rate + u3)::int as cbs,
             floor(vol / ticket * refund_rate + u4)::int as refs
      from (${raw} offset 0) raw
    ) counted`;
}

export interface ActivityWindow {
  /** First day of daily rows: the first day of the month twelve months before the current one (firstDailyDay). */
  dailyFrom: string;
  /** Last day of activity: yesterday. */
  lastDay: string;
  /** The current month. */
  currentMonth: string;
}

/**
 * Daily activity from `params` (a relation with each merchant's merchant_id, partner_id, ticket, cb_rate,
 * refund_rate, base, trend and its active_from..active_to days) for the days from..to it was active. The noise
 * is keyed by merchant and day, so a day's rows are the same whenever they are made.
 *
 * The day's factor (weekday, season, bank holiday) is computed once a day, into an array the rows index by their
 * day's offset; the rest is float8 arithmetic. Per row this is about a third of the time of computing the
 * calendar and the noise on every row (17 million rows at the large scale).
 */
export async function insertDailyActivity(
  db: Db,
  seed: number,
  params: string,
  from: string,
  to: string,
): Promise<void> {
  const h = 'k.h';
  const fromDay = `date '${from}'`;
  const key = noiseKey(noiseOf(seed, 'd', 'p.merchant_id', `${days(fromDay)} + g.i`), 'k');
  const calendar = `(select array_agg(f order by i) from (
      select i, (${arr(DOW)})[extract(dow from ${fromDay} + i)::int + 1]
                * (${arr(SEASON)})[extract(month from ${fromDay} + i)::int]
                * case when hol.day is null then 1 else 0.7 end / 30.4 as f
      from generate_series(0, date '${to}' - ${fromDay}) i
      left join holidays hol on hol.day = ${fromDay} + i) c)`;
  await sql
    .raw(`
    insert into merchant_daily (merchant_id, partner_id, day, volume, transactions, chargeback_volume, chargebacks, refund_volume, refunds)
    ${measures(
      'day',
      `
        select p.merchant_id, p.partner_id, p.ticket, p.cb_rate, p.refund_rate, ${fromDay} + g.i as day,
               p.base * ${calendar}[g.i + 1]
                 * least(1.0, 0.35 + 0.65 * (${fromDay} + g.i - p.active_from)::float8 / 90)
                 * power(1 + p.trend, (${fromDay} + g.i - p.active_from)::float8 / 365)
                 * (0.55 + 0.9 * ${uniform(h, 1)}) as vol,
               ${uniform(h, 2)} as u2, ${uniform(h, 3)} as u3, ${uniform(h, 4)} as u4
        from ${params} p
        cross join lateral generate_series(greatest(p.active_from, ${fromDay}) - ${fromDay},
                                           least(p.active_to, date '${to}') - ${fromDay}) g(i)
        ${key}
        where p.active_from is not null
    `,
    )}`)
    .execute(db);
}

/**
 * Monthly activity from the generator's per-merchant parameters (table seed_params), once the daily rows of the
 * recent window are in (insertDailyActivity): a synthesized row per month before the window, and inside it the
 * sums of the days, so a merchant's volume agrees between daily and monthly screens.
 */
export async function generateMonthlyActivity(db: Db, seed: number, w: ActivityWindow): Promise<void> {
  // Months before the daily window: one synthesized row per month the merchant was open.
  const m = 'k.h';
  const key = noiseKey(noiseOf(seed, 'm', 'p.merchant_id', days('mon')), 'k');
  await sql
    .raw(`
    insert into merchant_monthly (merchant_id, partner_id, month, volume, transactions, chargeback_volume, chargebacks, refund_volume, refunds)
    ${measures(
      'month',
      `
        select p.merchant_id, p.partner_id, p.ticket, p.cb_rate, p.refund_rate, mon::date as month,
               case when p.active_from is null then 0 else
                 p.base
                 * (${arr(SEASON)})[extract(month from mon)::int]
                 * greatest(0, least(p.active_to + 1, (mon + interval '1 month')::date) - greatest(p.active_from, mon::date))::float8
                   / ((mon + interval '1 month')::date - mon::date)
                 * least(1.0, 0.35 + 0.65 * greatest(0, mon::date + 15 - p.active_from) / 90.0)
                 * power(1 + p.trend, greatest(0, mon::date + 15 - p.active_from) / 365.0)
                 * (0.85 + 0.3 * ${uniform(m, 1)})
               end as vol,
               ${uniform(m, 2)} as u2, ${uniform(m, 3)} as u3, ${uniform(m, 4)} as u4
        from seed_params p
        cross join lateral generate_series(date_trunc('month', p.opened_on)::date,
                                           least(date_trunc('month', p.open_to)::date, date '${w.dailyFrom}' - 1),
                                           interval '1 month') mon
        ${key}
    `,
    )}`)
    .execute(db);

  // Months inside the window: the sum of the days, for every merchant open that month. The days are summed per
  // merchant and month first, then each open month takes its sums (zero without days): joining each month to
  // its merchant's days would pair every day with every month of the window (the daily index is not built yet).
  await sql
    .raw(`
    insert into merchant_monthly (merchant_id, partner_id, month, volume, transactions, chargeback_volume, chargebacks, refund_volume, refunds)
    select p.merchant_id, p.partner_id, mon::date,
           coalesce(d.volume, 0), coalesce(d.transactions, 0)::int,
           coalesce(d.chargeback_volume, 0), coalesce(d.chargebacks, 0)::int,
           coalesce(d.refund_volume, 0), coalesce(d.refunds, 0)::int
    from seed_params p
    cross join lateral generate_series(greatest(date_trunc('month', p.opened_on)::date, date '${w.dailyFrom}'),
                                       least(date_trunc('month', p.open_to)::date, date '${w.currentMonth}'),
                                       interval '1 month') mon
    left join (
      select merchant_id, date_trunc('month', day)::date as month, sum(volume) as volume,
             sum(transactions) as transactions, sum(chargeback_volume) as chargeback_volume,
             sum(chargebacks) as chargebacks, sum(refund_volume) as refund_volume, sum(refunds) as refunds
      from merchant_daily group by 1, 2
    ) d on d.merchant_id = p.merchant_id and d.month = mon::date`)
    .execute(db);
}

/**
 * Income per merchant-month, from its activity: interchange and card-brand fees pass through with a thin
 * margin, the markup (basis points, per item, monthly fee) is the income; the ISO is paid its rev share of
 * the net. gross − expenses = net exactly. `only.params` names the merchants' parameters (the seed's, or the
 * live demo's demo_merchant_params) and `only.where` limits the merchant-months (of merchant_monthly `a`).
 */
export async function generateIncome(
  db: Db,
  only: { params: string; where?: string } = { params: 'seed_params' },
): Promise<void> {
  await sql
    .raw(`
    insert into merchant_income (merchant_id, partner_id, month, gross, net, expenses, payouts,
      interchange_income, interchange_expense, card_brand_income, card_brand_expense)
    select merchant_id, partner_id, month, gross, gross - expenses, expenses,
           round(greatest(gross - expenses, 0) * rev_share, 2),
           ic_income, ic_expense, cb_income, cb_expense
    from (
      select merchant_id, partner_id, month, rev_share,
             round(ic, 2) as ic_income,
             round(ic * 0.996, 2) as ic_expense,
             round(volume * 0.0015, 2) as cb_income,
             round(volume * 0.0013, 2) as cb_expense,
             round(volume * margin_bps / 10000 + transactions * 0.05 + 9.95 + (ic * 0.004) + (volume * 0.0002), 2)
               as gross,
             round(volume * 0.0005 + transactions * 0.025 + 2.50, 2) as expenses
      from (
        select a.merchant_id, a.partner_id, a.month, a.volume, a.transactions, g.rev_share, p.margin_bps,
               a.volume * p.ic_rate as ic
        from merchant_monthly a
        -- A merchant's rates in numeric once, not once for each of its months (a float8 becomes numeric through
        -- its text).
        join (select merchant_id, ic_rate::numeric as ic_rate, margin_bps::numeric as margin_bps
              from ${only.params} offset 0) p on p.merchant_id = a.merchant_id
        join merchants mer on mer.id = a.merchant_id
        join groups g on g.group_id = mer.group_id
        ${only.where ? `where ${only.where}` : ''}
        offset 0
      ) a
    ) x`)
    .execute(db);
}

/**
 * Residual statements per merchant-month of the demo merchants from January 2021 (or `firstMonth`) to
 * `lastMonth`: the seed makes them to two months before the current one.
 */
export async function generateResiduals(
  db: Db,
  seed: number,
  lastMonth: string,
  firstMonth = '2021-01-01',
): Promise<void> {
  const h = 'k.h';
  const key = noiseKey(noiseOf(seed, 'r', 'i.merchant_id', days('i.month')), 'k');
  // Each month's rows go to a partition of their own (2026_12_02_0010_residuals_by_month), made first, in the order
  // of their agent (2026_12_07_0020_residuals_agent_order).
  await sql`select paydesk_residual_partition(m::date)
    from generate_series(${firstMonth}::date, ${lastMonth}::date, interval '1 month') m`.execute(db);
  await sql
    .raw(`
    insert into residuals (partner_id, merchant_id, month, processor, mid, dba, agent, office, payout_schedule, payout_to,
      transactions, volume, income, gross, net, ach_collected_gross, ach_collected_payout, ach_collected_net,
      ach_rejected_gross, ach_rejected_net, refunds_gross, refunds_payout, refunds_net,
      total_gross, total_payout, total_net, income1, expense, profit_loss)
    select partner_id, merchant_id, month, processor, mid, dba, agent, office, 'Monthly', agent,
           transactions, volume, income, gross, gross - payout, acg, acp, acg - acp, arg, arn, rg, rp, rg - rp,
           gross + acg + arg + rg, payout + acp + rp + (arg - arn),
           (gross + acg + arg + rg) - (payout + acp + rp + (arg - arn)), 0,
           expense, (gross + acg + arg + rg) - (payout + acp + rp + (arg - arn))
    from (
      select i.partner_id, i.merchant_id, i.month,
             case when m.sponsor_bank = 'PPS' then 'PPS' else 'TSYS' end as processor,
             m.mid, m.dba, pa.account_name as agent, g.group_name as office,
             a.transactions, a.volume, i.gross as income, i.net as gross, i.payouts as payout, i.expenses as expense,
             g.rev_share,
             case when ${uniform(h, 1)} < 0.3 then round((2 + 20 * ${uniform(h, 2)})::numeric, 2) else 0 end as acg,
             case when ${uniform(h, 1)} < 0.3 then round(round((2 + 20 * ${uniform(h, 2)})::numeric, 2) * g.rev_share, 2) else 0 end as acp,
             case when ${uniform(h, 3)} < 0.02 then -round((5 + 30 * ${uniform(h, 4)})::numeric, 2) else 0 end as arg,
             case when ${uniform(h, 3)} < 0.02 then round(-round((5 + 30 * ${uniform(h, 4)})::numeric, 2) * (1 - g.rev_share), 2) else 0 end as arn,
             -round(a.refund_volume * 0.001, 2) as rg,
             round(-round(a.refund_volume * 0.001, 2) * g.rev_share, 2) as rp
      from merchant_income i
      join merchant_monthly a on a.merchant_id = i.merchant_id and a.month = i.month
      join merchants m on m.id = i.merchant_id
      join groups g on g.group_id = m.group_id
      join partners pa on pa.id = i.partner_id
      join demo_merchant_params dp on dp.merchant_id = i.merchant_id
      ${key}
      where i.month >= date '${firstMonth}' and i.month <= date '${lastMonth}'
      offset 0
    ) x
    order by month, lower(agent), processor, mid`)
    .execute(db);
}

/**
 * A sprinkle of adjustments on the demo merchants: equipment, PCI and chargeback fees and credits on about
 * 2 % of merchant-months, over the same months as the residuals.
 */
export async function generateAdjustments(
  db: Db,
  seed: number,
  lastMonth: string,
  firstMonth = '2021-01-01',
): Promise<void> {
  const h = 'k.h';
  const key = noiseKey(noiseOf(seed, 'a', 'a.merchant_id', days('a.month')), 'k');
  await sql
    .raw(`
    insert into adjustments (partner_id, merchant_id, month, mid, category, description, amount)
    select a.partner_id, a.merchant_id, a.month, m.mid,
           (array['Equipment', 'PCI Fee', 'Chargeback Fee', 'Credit', 'Misc'])[1 + floor(${uniform(h, 2)} * 5)::int],
           (array['Terminal rental', 'PCI non-compliance', 'Chargeback handling', 'Goodwill credit', 'Statement correction'])[1 + floor(${uniform(h, 2)} * 5)::int],
           case when ${uniform(h, 2)} >= 0.6 and ${uniform(h, 2)} < 0.8 then -1 else 1 end * round((10 + 140 * ${uniform(h, 3)})::numeric, 2)
    from merchant_monthly a
    join merchants m on m.id = a.merchant_id
    join demo_merchant_params dp on dp.merchant_id = a.merchant_id
    ${key}
    where a.month >= date '${firstMonth}' and a.month <= date '${lastMonth}' and ${uniform(h, 1)} < 0.02
    -- The ids in merchant and month order, whatever order the monthly rows are stored in.
    order by a.merchant_id, a.month`)
    .execute(db);
}
