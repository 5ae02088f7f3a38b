import { sql } from 'kysely';
import { refreshAchDerived, refreshRateWindow } from '../../areas/ach/queries';
import type { Db } from '../connect';
import { days, noiseKey, noiseOf, uniform } from './sqlNoise';

/**
 * ACH returns of the demo merchants, made in set-based SQL from the merchants with hashed noise (deterministic:
 * the same seed, merchants and day give the same rows, on PGlite and PostgreSQL alike):
 * - ach_debit_entries: for the last ENTRY_DAYS days, each active merchant's debits per business day: the daily
 *   discount and daily interchange of merchants billed daily, the month's fees on the 3rd (or the Monday
 *   after), a chargeback and its fee on some days, High Risk reserve funding on Mondays.
 * - ach_returns: inside that window, each day's entries are returned with the merchant's return
 *   probability, so returns never outnumber entries and the rates are true to the rows; before it, back to
 *   HISTORY_YEARS, a merchant's returns come at the rate its debits would have had. Rows filed more than
 *   HISTORIC_AFTER_DAYS ago are the spreadsheet's (historic = 1). A few merchants in each ISO are "problem"
 *   accounts with many returns, many unauthorized, so the NACHA thresholds are crossed by some.
 * - ach_reserves: each returned merchant's reserve; then the derived columns (see areas/ach/queries.ts).
 */
export const ENTRY_DAYS = 90;
const HISTORY_YEARS = 5;
const HISTORIC_AFTER_DAYS = 730;

/** Weighted choice over a uniform expression, as a SQL case. */
function pick(u: string, choices: readonly (readonly [string, number])[]): string {
  const total = choices.reduce((s, [, w]) => s + w, 0);
  let running = 0;
  const whens = choices.slice(0, -1).map(([value, weight]) => {
    running += weight;
    return `when ${u} < ${(running / total).toFixed(6)} then '${value.replace(/'/g, "''")}'`;
  });
  return `(case ${whens.join(' ')} else '${choices.at(-1)?.[0]}' end)`;
}

/** Return codes as they come back: R01 by far the most, then R02, R03, R10, R16; a few NOCs. */
const CODES: readonly (readonly [string, number])[] = [
  ['R01', 46],
  ['R02', 13],
  ['R03', 9],
  ['R10', 7],
  ['R16', 5],
  ['R09', 3.5],
  ['R04', 3],
  ['R08', 2.5],
  ['R07', 1.5],
  ['R05', 1.2],
  ['R20', 1],
  ['R29', 0.8],
  ['R06', 0.6],
  ['R11', 0.4],
  ['R13', 0.3],
  ['R15', 0.3],
  ['R23', 0.2],
  ['R28', 0.2],
  ['R31', 0.1],
  ['R51', 0.1],
  ['C01', 1.6],
  ['C02', 0.8],
  ['C03', 0.4],
  ['C05', 0.4],
];
/** A problem account's returns: many unauthorized and closed accounts. */
const PROBLEM_CODES: readonly (readonly [string, number])[] = [
  ['R01', 35],
  ['R02', 14],
  ['R10', 12],
  ['R03', 9],
  ['R05', 6],
  ['R29', 4],
  ['R07', 4],
  ['R16', 4],
  ['R04', 4],
  ['R09', 3],
  ['R11', 2],
];
/** What was debited, for returns before the entries window. */
const DESCRIPTIONS: readonly (readonly [string, number])[] = [
  ['DAILY DISC', 34],
  ['FEES', 18],
  ['CHARGEBACK', 12],
  ['DAILY INT', 8],
  ['RSV FUND', 7],
  ['CB FEE', 6],
  ['NEG DEP', 5],
  ['2ND ATTMPT', 5],
  ['LOOKUP', 2],
  ['CHBK REV', 2],
];
/** How the ACH team resolved the returns it worked: of a closed merchant… */
const RESOLUTIONS: readonly (readonly [string, number])[] = [
  ['Re-Ran Successfully', 30],
  ['Used Reserve', 24],
  ['Write Off', 8],
  ['Used Reserve - PARTIAL', 6],
  ['Sent to Collections', 5],
  ['Received a Check', 4],
  ['Wire Received', 3],
  ['Write Off - Waived', 3],
  ['Write Off - Other', 2],
  ['Billed to ISO', 2],
  ['Cancels Out with DR/CR', 2],
  ['TSYS ERROR', 1.5],
  ['ETFshouldnothavebeencharged', 1.5],
  ['Fraud account', 1],
  ['hold all batches', 1],
  ['TR Investigation', 1],
  ['Under litigation', 0.5],
  ['Billed to Esquire Merch Svcs', 0.5],
];
/** …and of a merchant still processing, who is rarely written off or sent to collections. */
const ACTIVE_RESOLUTIONS = RESOLUTIONS.map(
  ([res, weight]) =>
    [res, res === 'Write Off' || res === 'Sent to Collections' ? weight / 6 : weight] as const,
);
const COMMENTS = [
  'Called merchant, will re-run Friday',
  'Merchant updated bank account',
  'Left voicemail with owner',
  'Reserve covers the balance',
  'Merchant closed the account at the bank',
  'ISO notified',
  'Emailed owner for new DDA',
  'Payment plan agreed',
  'Disputed by merchant, see ticket',
  'Re-presented after funds available',
];
/** Who worked the spreadsheet's rows, and who works them now (the demo's ACH editors). */
const SPREADSHEET_WORKERS = ['jmartinez', 'kpatel', 'rnguyen', 'dwhite'];
const WORKERS = ['finance@paydesk.local', 'finance.admin@paydesk.local'];
/** The originating DFI (the sponsor bank's routing prefix) of each bank's debits. */
const ODFI: Record<string, string> = {
  CBCAL: '12223421',
  Esquire: '02641085',
  Chesapeake: '05150409',
  PPS: '06100017',
  FirstData: '07300056',
};

const list = (values: readonly string[]) => `array[${values.map((v) => `'${v}'`).join(', ')}]`;

export interface AchSeedReport {
  returns: number;
  entries: number;
}

/** Fills the ACH tables for the merchants in the database, as of `today` (YYYY-MM-DD). Run in a transaction. */
export async function generateAch(
  db: Db,
  options: { seed: number; today: string; log?: (line: string) => void },
): Promise<AchSeedReport> {
  const seed = options.seed;
  const today = options.today;
  const log = options.log ?? (() => {});
  const m = 'k.h';

  await sql
    .raw(`create temporary table ach_seed_m on commit drop as
    select m.id as merchant_id, m.partner_id, m.mid, m.dba, m.legal_name, p.account_name as iso_name,
           case when m.status = 'Open' then 'Active' else 'Closed' end as merchant_status,
           m.sponsor_bank, m.profile, m.activated_on as active_from,
           least(coalesce(m.closed_on, date '${today}' - 1), date '${today}' - 1) as active_to,
           ${uniform(m, 1)} < 0.45 as daily,
           ${uniform(m, 1)} < 0.15 as daily_int,
           ${uniform(m, 2)} < 0.04 as problem,
           case when ${uniform(m, 2)} < 0.04 then 0.02 + 0.06 * ${uniform(m, 3)}
                else (0.004 + 0.011 * ${uniform(m, 3)}) * case when m.profile = 'High Risk' then 2.5 else 1 end
           end as p_entry,
           ${uniform(m, 4)} as u_rsv
    from merchants m join partners p on p.id = m.partner_id
    ${noiseKey(noiseOf(seed, 'achm', 'm.id'), 'k')}
    where m.activated_on is not null and m.activated_on < date '${today}'`)
    .execute(db);
  // Temporary tables have no statistics until analysed; with them the joins below are planned on real row counts.
  await sql`analyze ach_seed_m`.execute(db);

  // Each business day's debits in the entries window, by kind.
  const d = 'k.h';
  await sql
    .raw(`create temporary table ach_seed_days on commit drop as
    select merchant_id, partner_id, day, kinds from (
      select s.merchant_id, s.partner_id, d::date as day,
             array_remove(array[
               case when s.daily then 'DAILY DISC' end,
               case when s.daily_int then 'DAILY INT' end,
               case when extract(day from d) = 3 or (extract(dow from d) = 1 and extract(day from d) in (4, 5))
                    then 'FEES' end,
               case when ${uniform(d, 1)} < case when s.profile = 'High Risk' then 0.12 else 0.03 end
                    then 'CHARGEBACK' end,
               case when ${uniform(d, 1)} < case when s.profile = 'High Risk' then 0.12 else 0.03 end
                    then 'CB FEE' end,
               case when s.profile = 'High Risk' and extract(dow from d) = 1 then 'RSV FUND' end
             ], null) as kinds
      from ach_seed_m s
      cross join lateral generate_series(greatest(s.active_from, date '${today}' - ${ENTRY_DAYS}), s.active_to,
                                         interval '1 day') d
      left join holidays h on h.day = d::date
      ${noiseKey(noiseOf(seed, 'achd', 's.merchant_id', days('d')), 'k')}
      where extract(dow from d) between 1 and 5 and h.day is null
    ) x where cardinality(kinds) > 0`)
    .execute(db);
  await sql`analyze ach_seed_days`.execute(db);
  await sql`insert into ach_debit_entries (merchant_id, partner_id, day, entries)
    select merchant_id, partner_id, day, cardinality(kinds) from ach_seed_days`.execute(db);
  log('  ACH debit entries');

  // The returns: (merchant, entry day, n, what was debited when known).
  const e = noiseOf(seed, 'ache', 'x.merchant_id', days('x.day'));
  const a = noiseOf(seed, 'acha', 's.merchant_id');
  await sql
    .raw(`create temporary table ach_seed_events on commit drop as
    select x.merchant_id, x.day, n, x.kinds[1 + floor(${uniform(e, 2)} * cardinality(x.kinds))::int] as kind
    from ach_seed_days x join ach_seed_m s using (merchant_id)
    cross join lateral generate_series(1, least(cardinality(x.kinds),
                                                floor(cardinality(x.kinds) * s.p_entry + ${uniform(e, 1)})::int)) n
    union all
    select s.merchant_id,
           o.first + floor(${uniform(noiseOf(seed, 'achy', 's.merchant_id', 'n'), 1)} * (o.last - o.first + 1))::int,
           n, null
    from ach_seed_m s
    cross join lateral (select greatest(s.active_from, date '${today}' - ${HISTORY_YEARS * 365}) as first,
                               least(s.active_to, date '${today}' - ${ENTRY_DAYS + 1}) as last) o
    cross join lateral generate_series(1, floor((o.last - o.first + 1)
        * (case when s.daily then 0.7 * (case when s.daily_int then 2 else 1 end) else 0.05 end + 0.12)
        * s.p_entry + ${uniform(a, 1)})::int) n
    where o.last >= o.first`)
    .execute(db);
  await sql`analyze ach_seed_events`.execute(db);

  // Each return's two noise keys are computed once, in the innermost query, and read as columns hh and hg above it.
  const h = noiseOf(seed, 'achr', 'v.merchant_id', days('v.day'), 'v.n');
  const g = noiseOf(seed, 'achs', 'v.merchant_id', days('v.day'), 'v.n');
  const u = (n: 1 | 2 | 3 | 4) => uniform('hh', n);
  const w = (n: 1 | 2 | 3 | 4) => uniform('hg', n);
  const uInner = (n: 1 | 2 | 3 | 4) => uniform('kh.h', n);
  const amount = `round(case
      when desc_ = 'DAILY DISC' then 5 + 395 * ${u(3)} ^ 2
      when desc_ = 'FEES' then 25 + 225 * ${u(3)}
      when desc_ = 'CHARGEBACK' then 20 + 1480 * ${u(3)} ^ 2
      when desc_ = 'DAILY INT' then 10 + 590 * ${u(3)} ^ 2
      when desc_ = 'RSV FUND' then 100 + 2400 * ${u(3)}
      when desc_ = 'CB FEE' then 15 + 20 * ${u(3)}
      when desc_ = 'NEG DEP' then 50 + 2950 * ${u(3)} ^ 2
      when desc_ = '2ND ATTMPT' then 20 + 780 * ${u(3)} ^ 2
      when desc_ = 'LOOKUP' then 5 + 20 * ${u(3)}
      else 20 + 800 * ${u(3)} ^ 2 end::numeric, 2)`;
  await sql
    .raw(`insert into ach_returns (historic, merchant_id, partner_id, file_creation_date, mid, dba_name, legal_name,
        iso_name, company_entry_description, transaction_amount, addenda_related, rej_res, res_date, last_proc_date,
        rej_dda, comment, used_rsv, used_rsv_date, re_ran, re_ran_date, sent_to_coll, write_off, merchant_status,
        datetime_worked, worked_by, effective_entry_date, originating_dfi)
    select case when file_date < date '${today}' - ${HISTORIC_AFTER_DAYS} then 1 else 0 end,
           merchant_id, partner_id, file_date, mid, dba, legal_name, iso_name, desc_,
           amt, code, res, case when resolved then res_day end,
           least(active_to, file_date), rej_dda, comment,
           case when res = 'Used Reserve' then amt when res = 'Used Reserve - PARTIAL' then part end,
           case when res in ('Used Reserve', 'Used Reserve - PARTIAL') then res_day end,
           case when res = 'Re-Ran Successfully' then amt end,
           case when res = 'Re-Ran Successfully' then res_day end,
           case when res = 'Sent to Collections' then amt
                when res = 'Used Reserve - PARTIAL' and ${w(4)} between 0.45 and 0.7 then amt - part end,
           case when res in ('Write Off', 'Write Off - Other', 'Write Off - Waived') then amt
                when res = 'Used Reserve - PARTIAL' and ${w(4)} < 0.45 then amt - part end,
           merchant_status,
           case when res is not null or comment is not null
                then res_day + interval '9 hours' + ${w(2)} * interval '8 hours' end,
           case when res is not null or comment is not null then
             case when file_date < date '${today}' - ${HISTORIC_AFTER_DAYS}
                  then (${list(SPREADSHEET_WORKERS)})[1 + floor(${w(3)} * ${SPREADSHEET_WORKERS.length})::int]
                  else (${list(WORKERS)})[1 + floor(${w(3)} * ${WORKERS.length})::int] end end,
           day, odfi
    from (
      select v.*, round(amt * (0.3 + 0.5 * ${w(1)})::numeric, 2) as part,
             case
               when code like 'C%' then case when resolved then 'Notice of Correction' end
               when resolved and merchant_status = 'Active' then ${pick(u(4), ACTIVE_RESOLUTIONS)}
               when resolved then ${pick(u(4), RESOLUTIONS)}
               when ${w(1)} < 0.15 then 'Will Be Sent to Coll.'
             end as res,
             case when resolved and ${w(2)} < 0.3 or not resolved and ${w(2)} < 0.08
                  then (${list(COMMENTS)})[1 + floor(${w(4)} * ${COMMENTS.length})::int] end as comment
      from (
        select v.*,
               case when code like 'C%' then 0 else ${amount} end as amt,
               'XXXXX' || lpad(floor(${w(3)} * 10000)::int::text, 4, '0') as rej_dda,
               least(file_date + 1 + floor(${w(2)} * 20)::int, date '${today}' - 1) as res_day,
               ${w(1)} < case when date '${today}' - file_date < 3 then 0.05
                              when date '${today}' - file_date < 14 then 0.35
                              when date '${today}' - file_date < 45 then 0.7 else 0.93 end as resolved
        from (
          select v.merchant_id, v.day, v.n, s.partner_id, s.mid, s.dba, s.legal_name, s.iso_name,
                 s.merchant_status, s.active_to,
                 coalesce(v.kind, ${pick(uInner(2), DESCRIPTIONS)}) as desc_,
                 case when s.problem then ${pick(uInner(1), PROBLEM_CODES)} else ${pick(uInner(1), CODES)} end as code,
                 least(v.day + 1 + floor(${uInner(2)} * 4)::int, date '${today}' - 1) as file_date,
                 case s.sponsor_bank ${Object.entries(ODFI)
                   .map(([bank, id]) => `when '${bank}' then '${id}'`)
                   .join(' ')} end as odfi,
                 kh.h as hh, kg.h as hg
          from ach_seed_events v join ach_seed_m s using (merchant_id)
          ${noiseKey(h, 'kh')}
          ${noiseKey(g, 'kg')}
          offset 0
        ) v
        offset 0
      ) v
      offset 0
    ) v
    -- The ids in the order of the events (a merchant's day and its number), whatever order the plan reads them in.
    order by v.merchant_id, v.day, v.n`)
    .execute(db);
  log('  ACH returns');

  // Reserves: High Risk merchants always hold one, others sometimes.
  const r = uniform(noiseOf(seed, 'achv', 'x.merchant_id'), 1);
  await sql
    .raw(`insert into ach_reserves (merchant_id, partner_id, mid, rsv_hold, rsv_ceiling, rsv_balance)
    select merchant_id, partner_id, mid,
           case when ${r} < 0.25 then round(balance * (2 * ${r})::numeric, 2) else 0 end, ceiling, balance
    from (
      select s.merchant_id, s.partner_id, s.mid, c.ceiling,
             case when c.ceiling = 0 then 0 else round(c.ceiling * (0.1 + 0.9 * s.u_rsv)::numeric, 2) end as balance
      from ach_seed_m s
      cross join lateral (select case when s.profile = 'High Risk' then round((5000 + 45000 * s.u_rsv)::numeric, -2)
                                      when s.u_rsv < 0.4 then round((1000 + 9000 * s.u_rsv)::numeric, -2)
                                      else 0 end as ceiling) c
      where exists (select 1 from ach_returns a where a.merchant_id = s.merchant_id)
    ) x`)
    .execute(db);

  await refreshAchDerived(db);
  await refreshRateWindow(db, today);
  log('  ACH reserves, balances and return rates');
  const counts = await sql<{ returns: number; entries: number }>`select
    (select count(*)::int from ach_returns) as returns, (select count(*)::int from ach_debit_entries) as entries`.execute(
    db,
  );
  return counts.rows[0] ?? { returns: 0, entries: 0 };
}

/**
 * The bench database (and any demo database seeded before ACH existed) gets its ACH data without a reseed:
 * when the ACH tables are empty and the database is a demo one, its ACH rows are made as of the moment its
 * data reaches (demo_state.caught_up_to), with its seed. Returns null when there was nothing to do.
 */
export async function seedAchIfMissing(db: Db, log?: (line: string) => void): Promise<AchSeedReport | null> {
  const state = await db.selectFrom('demo_state').select(['seed', 'caught_up_to']).executeTakeFirst();
  if (!state) return null;
  const existing = await db.selectFrom('ach_returns').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  const report = await db.transaction().execute((trx) =>
    generateAch(trx, {
      seed: state.seed,
      today: new Date(state.caught_up_to).toISOString().slice(0, 10),
      log,
    }),
  );
  await sql`vacuum analyze ach_returns, ach_debit_entries, ach_reserves, ach_rate_window`.execute(db);
  return report;
}
