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
 * The values each filter group offers among the merchants the caller can see (every member of the answer but
 * `mid`), as the JSON text of an object, written by the database in one statement. It is kept until a merchant is
 * inserted or deleted, or one of the columns it reads changes (routes.ts; migration 2026_12_13_0020).
 *
 * Staff see every merchant: each group's values are found by skipping through an index of them (the next value
 * after the last one found, one index descent each: 54 MCCs, 20 profile and bank pairs at most, a probe per year
 * and month between the first opening and the last, a probe per ISO) instead of reading every merchant (130 ms at
 * the large scale). An ISO-bound user's values come from their own ISO's rows, which row-level security limits
 * the statement to, through the index of an ISO's merchants with these columns.
 */
export async function optionsGroupsJson(db: Db, isoBound: boolean): Promise<string> {
  // A group's values: `from` answers them as a column v.
  const values = (key: string, from: string) =>
    `(select coalesce(json_agg(json_build_object('${key}', v) order by v), '[]') from ${from} x)`;
  const object = (profile: string, bank: string, mcc: string, months: string, years: string) =>
    `json_build_object(
      'profile', ${values('Merchant_Profile', profile)},
      'bank', ${values('Bank', bank)},
      'mcc', ${values('MCC', mcc)},
      'descript', (select coalesce(json_agg(json_build_object('Code', c.code, 'Description', c.description)
                     order by c.code), '[]')
                   from mcc_codes c where c.code in (select v from mccs)),
      'partner', (select coalesce(json_agg(json_build_object('Partner_Name', p.account_name)
                    order by p.account_name), '[]')
                  from partners p where exists (select 1 from merchants m where m.partner_id = p.id)),
      'omonth', ${values('open_month', months)},
      'oyear', ${values('open_year', years)}
    )::text as answer`;
  const statement = isoBound
    ? `with combos as materialized (select mcc, profile, sponsor_bank from merchants group by 1, 2, 3),
       mccs as (select distinct mcc as v from combos),
       days as materialized (select opened_on as day from merchants group by 1)
       select ${object(
         '(select distinct profile as v from combos)',
         '(select distinct sponsor_bank as v from combos)',
         'mccs',
         '(select distinct extract(month from day)::int as v from days)',
         '(select distinct extract(year from day)::int as v from days)',
       )}`
    : `with recursive
       mccs (v) as (
         (select mcc from merchants order by mcc limit 1)
         union all
         select (select m.mcc from merchants m where m.mcc > c.v order by m.mcc limit 1) from mccs c
         where c.v is not null
       ),
       pairs (profile, bank) as (
         (select profile, sponsor_bank from merchants order by profile, sponsor_bank limit 1)
         union all
         select n.profile, n.sponsor_bank from pairs c cross join lateral (
           select m.profile, m.sponsor_bank from merchants m
           where (m.profile, m.sponsor_bank) > (c.profile, c.bank)
           order by m.profile, m.sponsor_bank limit 1) n
       ),
       span as (select extract(year from min(opened_on))::int as first,
                       extract(year from max(opened_on))::int as last from merchants),
       years (v) as (
         select y from span, generate_series(span.first, span.last) y
         where exists (select 1 from merchants m
                       where m.opened_on >= make_date(y, 1, 1) and m.opened_on < make_date(y + 1, 1, 1))
       ),
       months (v) as (
         select mo from generate_series(1, 12) mo
         where exists (select 1 from years y where exists (select 1 from merchants m
           where m.opened_on >= make_date(y.v, mo, 1)
             and m.opened_on < (make_date(y.v, mo, 1) + interval '1 month')::date))
       )
       select ${object(
         '(select distinct profile as v from pairs)',
         '(select distinct bank as v from pairs)',
         '(select v from mccs where v is not null)',
         'months',
         'years',
       )}`;
  const { rows } = await sql<{ answer: string }>`${sql.raw(statement)}`.execute(db);
  return rows[0]?.answer ?? '{}';
}

/** The parts of the list of every MID and DBA (migration 2026_12_13_0020): each from its bound to the next one. */
export async function midParts(db: Db): Promise<{ part: string; bound: string; next: string | null }[]> {
  const { rows } = await sql<{ part: string; bound: string; next: string | null }>`
    select part, bound, lead(bound) over (order by bound) as next from fin_mid_bounds order by bound`.execute(
    db,
  );
  return rows;
}

/**
 * The `mid` members of the given parts of the list (the caller's merchants with a DBA from the part's bound to the
 * next one, by DBA and MID), each as the JSON text of its elements without brackets; a part without a merchant is
 * left out. Each part is one range of the index of (DBA, MID).
 */
export async function midPartsJson(
  db: Db,
  parts: readonly { part: string; bound: string; next: string | null }[],
): Promise<Map<string, string>> {
  const inner = parts.filter((p) => p.next !== null);
  const last = parts.find((p) => p.next === null);
  // Each element written as its text, joined in the order of the index scan: the rows come from a subquery sorted
  // by the index's own order, which PostgreSQL's string_agg keeps (an ORDER BY inside the aggregate would sort each
  // part again: 150 ms against 85 for every part at the large scale).
  const part = (range: RawBuilder<unknown>) => sql`(select string_agg(x.element, ',') from (
      select '{"MID":' || to_json(m.mid)::text || ',"DBA":' || to_json(m.dba)::text || '}' as element
      from merchants m where ${range} order by m.dba, m.mid) x)`;
  const { rows } = await sql<{ part: string; text: string | null }>`
    select r.part, ${part(sql`m.dba >= r.bound and m.dba < r.next`)} as text
    from unnest(${inner.map((p) => p.part)}::text[], ${inner.map((p) => p.bound)}::text[],
      ${inner.map((p) => p.next as string)}::text[]) r(part, bound, next)
    ${last ? sql`union all select ${last.part}::text, ${part(sql`m.dba >= ${last.bound}::text`)}` : sql``}`.execute(
    db,
  );
  return new Map(rows.flatMap((r) => (r.text === null ? [] : [[r.part, r.text] as const])));
}

/** Merchants per part of the list of every MID and DBA, as the bounds are drawn. */
export const MID_PART_SIZE = 1000;

/**
 * Draws the bounds of the MID list's parts again when a part holds more than twice MID_PART_SIZE merchants or the
 * parts are twice as many as needed (the seed, and hourly: jobs.ts); answers whether it did.
 */
export async function redrawMidParts(db: Db, size = MID_PART_SIZE): Promise<boolean> {
  const { rows } = await sql<{ redrawn: boolean }>`select paydesk_fin_mid_parts(${size}) as redrawn`.execute(
    db,
  );
  return rows[0]?.redrawn === true;
}
