import {
  addMonths,
  type IsoPartnerRow,
  type IsoPartnerStatusRow,
  type IsoPartnersBody,
  type IsoPartnersStatusBody,
  isoPartnersTable,
  isoStatus,
  lastDayOfMonth,
} from '@paydesk/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';
import { scopeKey } from '../../platform/answerCache';
import { badRequest } from '../../platform/errors';
import type { TableSource } from '../../platform/tableQuery';

type Column = (typeof isoPartnersTable.columns)[number]['id'];

/** Ranges end on their last day, included. */
function checkRanges(pairs: Array<[string, string, string]>) {
  for (const [name, start, end] of pairs)
    if (start > end) throw badRequest(`${name}: the start is after the end`);
}

/**
 * One row per ISO: its approvals in this and last month and year, and the days since its latest
 * application. A subquery with parameters, so the table toolkit can filter, sort and page it.
 */
export function partnersSubquery(b: IsoPartnersBody): RawBuilder<unknown> {
  checkRanges([
    ['this month', b.this_month_start, b.this_month_end],
    ['last month', b.last_month_start, b.last_month_end],
    ['this year', b.this_year_start, b.this_year_end],
    ['last year', b.last_year_start, b.last_year_end],
  ]);
  const from = [b.this_month_start, b.last_month_start, b.this_year_start, b.last_year_start].sort()[0];
  const to = [b.this_month_end, b.last_month_end, b.this_year_end, b.last_year_end].sort().at(-1);
  const inRange = (start: string, end: string) =>
    sql`a.approved_at >= ${start}::date and a.approved_at < ${end}::date + 1`;
  return sql`(
    select p.account_name as partner, p.date_signed::text as date_signed, p.rm,
      (${b.today}::date - (select max(x.submitted_at)::date from applications x
                           where x.partner_id = p.id and x.submitted_at < ${b.today}::date + 1))::int as days_since_last_app,
      coalesce(c.this_month, 0)::int as approvals_this_month, coalesce(c.last_month, 0)::int as approvals_last_month,
      coalesce(c.this_year, 0)::int as approvals_this_year, coalesce(c.last_year, 0)::int as approvals_last_year
    from partners p
    left join (
      select a.partner_id,
        count(*) filter (where ${inRange(b.this_month_start, b.this_month_end)}) as this_month,
        count(*) filter (where ${inRange(b.last_month_start, b.last_month_end)}) as last_month,
        count(*) filter (where ${inRange(b.this_year_start, b.this_year_end)}) as this_year,
        count(*) filter (where ${inRange(b.last_year_start, b.last_year_end)}) as last_year
      from applications a
      where a.approved_at >= ${from}::date and a.approved_at < ${to}::date + 1
      group by a.partner_id
    ) c on c.partner_id = p.id
  ) t`;
}

/** A PostgreSQL array literal of texts (every element quoted) or integers; null elements as NULL. */
function arrayLiteral(values: readonly (string | number | null)[]): string {
  const element = (v: string | number | null) =>
    v === null ? 'NULL' : typeof v === 'number' ? String(v) : `"${v.replace(/[\\"]/g, '\\$&')}"`;
  return `{${values.map(element).join(',')}}`;
}

/** The directory's columns as array literals, made once per kept directory text (see partnersSource). */
const directoryColumns = new Map<string, string[]>();
const DIRECTORY_COLUMNS = [
  'partner',
  'date_signed',
  'rm',
  'days_since_last_app',
  'approvals_this_month',
  'approvals_last_month',
  'approvals_this_year',
  'approvals_last_year',
] as const satisfies readonly (keyof IsoPartnerRow)[];

function columnsOf(directoryJson: string): string[] {
  let columns = directoryColumns.get(directoryJson);
  if (!columns) {
    const rows = JSON.parse(directoryJson) as IsoPartnerRow[];
    columns = DIRECTORY_COLUMNS.map((key) => arrayLiteral(rows.map((r) => r[key])));
    directoryColumns.set(directoryJson, columns);
    // A few directories (scopes and months) at a time; the oldest made is dropped first.
    for (const key of directoryColumns.keys()) {
      if (directoryColumns.size <= 16) break;
      directoryColumns.delete(key);
    }
  }
  return columns;
}

/**
 * The ISO performance table over the directory's answer for these ranges (`directoryJson`, as GetPartners answers
 * it, cached per version of partners and applications): filtering, sorting and paging 1,000 ISOs read back from
 * it, instead of counting every approval of two years and finding each ISO's latest application per request. The
 * rows go to PostgreSQL as one array per column (`unnest`), made once per kept directory: reading 1,000 rows back
 * from the JSON text took each of the page's two statements 4–5 ms at the large scale, from arrays about 1 ms.
 */
export function partnersSource(directoryJson: string): TableSource<Column> {
  const [partner, dateSigned, rm, days, thisMonth, lastMonth, thisYear, lastYear] = columnsOf(directoryJson);
  return {
    def: isoPartnersTable,
    from: sql`unnest(${partner}::text[], ${dateSigned}::text[], ${rm}::text[], ${days}::int[], ${thisMonth}::int[],
      ${lastMonth}::int[], ${thisYear}::int[], ${lastYear}::int[])
      as t(partner, date_signed, rm, days_since_last_app, approvals_this_month, approvals_last_month,
        approvals_this_year, approvals_last_year)`,
    expressions: {
      partner: 't.partner',
      date_signed: 't.date_signed::date',
      rm: 't.rm',
      days_since_last_app: 't.days_since_last_app',
      approvals_this_month: 't.approvals_this_month',
      approvals_last_month: 't.approvals_last_month',
      approvals_this_year: 't.approvals_this_year',
      approvals_last_year: 't.approvals_last_year',
    },
    searchable: ['partner', 'rm'],
    tiebreak: 't.partner',
  };
}

export async function allPartners(db: Db, b: IsoPartnersBody): Promise<IsoPartnerRow[]> {
  const { rows } =
    await sql<IsoPartnerRow>`select * from ${partnersSubquery(b)} order by approvals_this_year desc, partner`.execute(
      db,
    );
  return rows;
}

/**
 * The key under which a whole-directory answer of the ISO partners dashboard (one row per ISO the user sees) is
 * kept (platform/answerCache.ts): per scope, call and ranges, and per version of partners and applications (the
 * `iso_partners` answer version). Both answers are made of fixed fields by the functions above, so the text is
 * exactly what the schema would send.
 */
export function directoryKey(
  user: { isoId: number | null } | null,
  call: 'partners' | 'status',
  body: IsoPartnersBody | IsoPartnersStatusBody,
): string {
  // The body's fields in a fixed order: the same ranges are the same answer however the client ordered them.
  const ranges = Object.entries(body)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return scopeKey(user, call, ranges);
}

/** The date ranges of the ISO performance screen for a chosen month, as the older client computed them. */
export function rangesForMonth(month: string, now = new Date()): IsoPartnersBody {
  const realToday = now.toISOString().slice(0, 10);
  const monthEnd = lastDayOfMonth(month);
  const today = realToday < monthEnd ? realToday : monthEnd;
  const lastMonth = addMonths(month, -1);
  const year = month.slice(0, 4);
  const lastYear = String(Number(year) - 1);
  return {
    today,
    this_month_start: month,
    this_month_end: monthEnd,
    last_month_start: lastMonth,
    last_month_end: lastDayOfMonth(lastMonth),
    this_year_start: `${year}-01-01`,
    this_year_end: `${year}-12-31`,
    last_year_start: `${lastYear}-01-01`,
    last_year_end: `${lastYear}-12-31`,
  };
}

export async function partnerStatuses(db: Db, b: IsoPartnersStatusBody): Promise<IsoPartnerStatusRow[]> {
  checkRanges([
    ['this month', b.this_month_start, b.this_month_end],
    ['last 90 days', b.last_90D_start, b.last_90D_end],
  ]);
  // One pass over the approvals of both ranges (the approved_at index), then the latest application and the
  // latest approval of each ISO. The status turns on approvals, so the latest approval is the date to show
  // beside it; the latest application only says the ISO is still sending deals.
  const from = b.this_month_start < b.last_90D_start ? b.this_month_start : b.last_90D_start;
  const to = b.this_month_end > b.last_90D_end ? b.this_month_end : b.last_90D_end;
  const { rows } = await sql<{
    iso_name: string;
    this_month: number;
    last_90: number;
    latest_app_date: string | null;
    latest_approval_date: string | null;
  }>`
    select p.account_name as iso_name, coalesce(c.this_month, 0)::int as this_month, coalesce(c.last_90, 0)::int as last_90,
      (select max(x.submitted_at)::date::text from applications x where x.partner_id = p.id
         and x.submitted_at < ${b.last_90D_end}::date + 1) as latest_app_date,
      (select max(x.approved_at)::date::text from applications x where x.partner_id = p.id
         and x.approved_at < ${to}::date + 1) as latest_approval_date
    from partners p
    left join (
      select a.partner_id,
        count(*) filter (where a.approved_at >= ${b.this_month_start}::date and a.approved_at < ${b.this_month_end}::date + 1) as this_month,
        count(*) filter (where a.approved_at >= ${b.last_90D_start}::date and a.approved_at < ${b.last_90D_end}::date + 1) as last_90
      from applications a
      where a.approved_at >= ${from}::date and a.approved_at < ${to}::date + 1
      group by a.partner_id
    ) c on c.partner_id = p.id
    order by p.account_name`.execute(db);
  return rows.map((r) => ({
    iso_name: r.iso_name,
    iso_status: isoStatus(r.this_month, r.last_90),
    latest_app_date: r.latest_app_date,
    latest_approval_date: r.latest_approval_date,
  }));
}
