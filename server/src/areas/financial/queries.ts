import {
  type AverageRow,
  BANKS,
  divRound,
  FIN_GROUPS,
  type FinFilters,
  type FinGroup,
  Fraction,
  type MonthlyGraphRow,
  PROFILES,
  parseMoney,
  sum,
  toDecimalString,
} from '@paydesk/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';
import { badRequest } from '../../platform/errors';

type Filters = { [G in FinGroup]: Array<string | number | null> };

/** The SQL expression of each filter group on a merchant `m`, and its rollup dimension. */
const EXPR: Record<FinGroup, string> = {
  profile: 'm.profile',
  bank: 'm.sponsor_bank',
  omonth: 'extract(month from m.opened_on)::int',
  oyear: 'extract(year from m.opened_on)::int',
  mcc: 'm.mcc',
  partner: 'm.partner_id',
};

/** Checks every value against what exists and turns partner names into ids. Unknown values are refused. */
export async function resolveFilters(db: Db, input: FinFilters): Promise<Filters> {
  const f = { profile: [], bank: [], omonth: [], oyear: [], mcc: [], partner: [], ...input } as Filters;
  const unknown = (group: string, v: unknown) =>
    badRequest(`Unknown ${group}: ${v === null ? 'Not Specified' : String(v)}`);
  for (const v of f.profile)
    if (v !== null && !(PROFILES as readonly unknown[]).includes(v)) throw unknown('profile', v);
  for (const v of f.bank)
    if (v !== null && !(BANKS as readonly unknown[]).includes(v)) throw unknown('bank', v);
  const mccs = f.mcc.filter((v): v is string => v !== null);
  if (mccs.length > 0) {
    const known = new Set(
      (await db.selectFrom('mcc_codes').select('code').where('code', 'in', mccs).execute()).map(
        (r) => r.code,
      ),
    );
    const missing = mccs.find((v) => !known.has(v));
    if (missing !== undefined) throw unknown('MCC', missing);
  }
  const names = f.partner.filter((v): v is string => v !== null);
  if (names.length > 0) {
    const rows = await db
      .selectFrom('partners')
      .select(['id', 'account_name'])
      .where('account_name', 'in', names)
      .execute();
    const ids = new Map(rows.map((r) => [r.account_name, r.id]));
    const missing = names.find((n) => !ids.has(n));
    if (missing !== undefined) throw unknown('partner', missing);
    f.partner = f.partner.map((n) => (n === null ? null : (ids.get(n as string) ?? null)));
  }
  return f;
}

const used = (f: Filters) => FIN_GROUPS.filter((g) => f[g].length > 0);

/** A group's condition: value in (…), with null meaning 'Not Specified'. */
function groupCondition(group: FinGroup, vals: Array<string | number | null>): RawBuilder<unknown> {
  const e = sql.raw(EXPR[group]);
  const present = vals.filter((v) => v !== null);
  const parts: RawBuilder<unknown>[] = [];
  if (present.length > 0) parts.push(sql`${e} in (${sql.join(present)})`);
  if (present.length < vals.length) parts.push(sql`${e} is null`);
  return sql`(${sql.join(parts, sql` or `)})`;
}

interface MonthTotals {
  month: string;
  volume: string;
  transactions: number;
  income: string;
  merchants: number;
  age_months: number;
}

/**
 * Totals per month from `from` to `to` (inclusive), for the filtered merchants. No filter or filters in one
 * group read the rollup (an ISO-bound user: their ISO's rollup rows, unfiltered); the rest find the merchants
 * by an index on their filter columns and read each one's months from its Self Serve rows (activity and income
 * already joined, index-only by merchant and month), which row-level security scopes.
 */
export async function monthTotals(
  db: Db,
  f: Filters,
  from: string,
  to: string,
  isoId: number | null,
): Promise<MonthTotals[]> {
  const groups = used(f);
  const [only] = groups;
  // An ISO-bound user reads only their ISO's rollup rows (row-level security); unfiltered, that is the answer.
  let rollup: [string, string[]] | null = null;
  if (isoId !== null) rollup = groups.length === 0 ? ['partner', [String(isoId)]] : null;
  else if (groups.length === 0) rollup = ['all', ['']];
  else if (groups.length === 1 && only) rollup = [only, f[only].map((v) => (v === null ? '' : String(v)))];
  if (rollup) {
    const [dimension, vals] = rollup;
    const { rows } = await sql<MonthTotals>`
      select m::date::text as month, coalesce(sum(r.volume), 0)::text as volume, coalesce(sum(r.transactions), 0)::bigint as transactions,
             coalesce(sum(r.income), 0)::text as income, coalesce(sum(r.merchants), 0)::int as merchants,
             coalesce(sum(r.age_months), 0)::bigint as age_months
      from generate_series(${from}::date, ${to}::date, interval '1 month') m
      left join activity_rollup r on r.month = m::date and r.dimension = ${dimension} and r.value in (${sql.join(vals)})
      group by m order by m`.execute(db);
    return rows;
  }
  const where =
    groups.length > 0
      ? sql`and ${sql.join(
          groups.map((g) => groupCondition(g, f[g])),
          sql` and `,
        )}`
      : sql``;
  const { rows } = await sql<MonthTotals>`
    select m::date::text as month, coalesce(sum(t.volume), 0)::text as volume, coalesce(sum(t.transactions), 0)::bigint as transactions,
           coalesce(sum(t.income), 0)::text as income, count(t.month)::int as merchants, coalesce(sum(t.age), 0)::bigint as age_months
    from generate_series(${from}::date, ${to}::date, interval '1 month') m
    left join (
      select s.month, s.tx_amt as volume, s.tx_cnt as transactions, s.income,
             (extract(year from age(s.month, date_trunc('month', m.opened_on))) * 12
              + extract(month from age(s.month, date_trunc('month', m.opened_on))))::int as age
      from merchants m
      join selfserve_rows s on s.merchant_id = m.id
      where s.month >= ${from}::date and s.month <= ${to}::date ${where}
    ) t on t.month = m::date
    group by m order by m`.execute(db);
  return rows;
}

/**
 * Averages per merchant-month over the months given, exact: the months' decimal sums are added as cents
 * and divided once, half-up (docs/money.md); a float sum drifts and toFixed rounds 0.505 down.
 */
export function averages(totals: MonthTotals[]): AverageRow {
  // With no merchant-month every sum is 0, and so is every average.
  const n = Math.max(
    1,
    totals.reduce((count, t) => count + t.merchants, 0),
  );
  const amount = (k: 'volume' | 'income') =>
    toDecimalString(divRound(sum(totals.map((t) => parseMoney(t[k]))), n));
  const count = (k: 'transactions' | 'age_months', places: number) =>
    new Fraction(
      totals.reduce((total, t) => total + BigInt(t[k]), 0n),
      BigInt(n),
    ).toFixed(places, 'half-up');
  return {
    Volume: amount('volume'),
    Transactions: count('transactions', 2),
    Income: amount('income'),
    Average_Age: count('age_months', 1),
  };
}

export function series(totals: MonthTotals[]): MonthlyGraphRow[] {
  return totals.map((t) => ({
    Year_Months: t.month.slice(0, 7),
    Volume: toDecimalString(parseMoney(t.volume)),
    Transactions: Number(t.transactions),
    Income: toDecimalString(parseMoney(t.income)),
  }));
}

/**
 * The values each filter group offers among the merchants the caller can see, and every such merchant's MID and
 * DBA, as the answer's JSON text, written by the database in one statement. Each group's values come from a few
 * thousand rows instead of every merchant: the profile, bank and MCC combinations read in the order of an index
 * of them, the open days in the order of theirs (the year and month of each day, not of each merchant), and the
 * MIDs in order from an index of (DBA, MID). The answer is kept until a merchant, partner or MCC changes
 * (platform/answerCache.ts, 'fin_options'; migration 2026_12_09_0020): eight statements over every merchant took
 * 380 ms at the large scale (docs/bench.md).
 */
export async function optionsJson(db: Db): Promise<string> {
  const list = (key: string, value: string, from: string) =>
    sql.raw(`(select coalesce(json_agg(json_build_object('${key}', v) order by v), '[]') from
      (select distinct ${value} as v from ${from}) x)`);
  const { rows } = await sql<{ answer: string }>`
    with combos as materialized (select mcc, profile, sponsor_bank from merchants group by 1, 2, 3),
    days as materialized (select opened_on as day from merchants group by 1)
    select json_build_object(
      'profile', ${list('Merchant_Profile', 'profile', 'combos')},
      'bank', ${list('Bank', 'sponsor_bank', 'combos')},
      'mcc', ${list('MCC', 'mcc', 'combos')},
      'descript', (select coalesce(json_agg(json_build_object('Code', c.code, 'Description', c.description)
                     order by c.code), '[]')
                   from mcc_codes c where c.code in (select mcc from combos)),
      'partner', (select coalesce(json_agg(json_build_object('Partner_Name', p.account_name)
                    order by p.account_name), '[]')
                  from partners p where exists (select 1 from merchants m where m.partner_id = p.id)),
      'mid', (select coalesce(json_agg(x), '[]')
              from (select mid as "MID", dba as "DBA" from merchants order by dba, mid) x),
      'omonth', ${list('open_month', 'extract(month from day)::int', 'days')},
      'oyear', ${list('open_year', 'extract(year from day)::int', 'days')}
    )::text as answer`.execute(db);
  return rows[0]?.answer ?? '{}';
}
