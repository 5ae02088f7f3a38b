import { type Kysely, sql } from 'kysely';

/** Runs DDL statements one by one (PGlite's extended protocol takes one statement per query). */
export async function run(db: Kysely<unknown>, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** The database role that ISO-bound users' requests run as; see platform/scope.ts. */
export const ISO_ROLE = 'paydesk_iso';

/** The database role that public-token routes (no session) run as: no grants on business tables. */
export const PUBLIC_TOKEN_ROLE = 'paydesk_public';

/**
 * Row-level security that limits a partner- or merchant-level table to one ISO for requests running as
 * ISO_ROLE. Every such table calls this in its migration; internal staff's requests (the table owner) are
 * not affected, and an ISO-bound request that forgot to set its ISO fails instead of seeing everything.
 */
export async function scopeToIso(db: Kysely<unknown>, table: string, partnerColumn = 'partner_id') {
  const predicate = `${partnerColumn} = current_setting('paydesk.iso_id')::int`;
  await run(db, [
    `alter table ${table} enable row level security`,
    `create policy ${table}_iso_scope on ${table} to ${ISO_ROLE} using (${predicate}) with check (${predicate})`,
  ]);
}

/**
 * A summary table kept by the database (a trigger writes it): an ISO-bound request reads its own ISO's rows only
 * and writes none.
 */
export async function keptForIso(db: Kysely<unknown>, table: string) {
  await scopeToIso(db, table);
  await run(db, [
    `grant select on ${table} to ${ISO_ROLE}`,
    `revoke insert, update, delete on ${table} from ${ISO_ROLE}`,
  ]);
}

/** Platform tables an ISO-bound request must never read. */
export async function hideFromIsoRole(db: Kysely<unknown>, tables: string[]) {
  await run(
    db,
    tables.map((t) => `revoke all on ${t} from ${ISO_ROLE}`),
  );
}

/**
 * The transaction-level advisory lock that writers of kept answers and of derived data's sources queue on
 * (migration 2026_12_15_0010, and db/derived.ts before a refresh). Baked into that migration's function: never change.
 */
export const WRITE_QUEUE_LOCK = 720_260_001;
export const WRITE_QUEUE_FUNCTION = 'paydesk_queue_writes';

/**
 * The statement-level BEFORE trigger that queues a table's writers (migration 2026_12_15_0010): every table whose
 * writes raise a kept answer's version, or that derived data is refreshed from, has it (a test checks).
 */
export const queueWrites = (table: string) =>
  `create or replace trigger ${table}_queue_writes before insert or update or delete or truncate on ${table}
     for each statement execute function ${WRITE_QUEUE_FUNCTION}()`;

/**
 * A kept answer's version (platform/answerCache.ts): its row in `answer_versions`, and a statement-level trigger on
 * each table it reads that raises the version in every transaction writing the table.
 */
export function answerVersion(name: string, tables: readonly string[]): string[] {
  return [
    `insert into answer_versions (name) values ('${name}')`,
    ...tables.map(
      (
        table,
      ) => `create trigger ${table}_${name}_answer_version after insert or update or delete or truncate on ${table}
         for each statement execute function paydesk_bump_answer_version('${name}')`,
    ),
  ];
}

/**
 * A summary table kept from a table's rows in the writing statement itself (as `ach_groups` is kept): a trigger
 * function run once per statement with its transition tables, and its four triggers. `add` receives the signed
 * rows (`sign` +1 for each new row, −1 for each old one, every column of the table beside it) of an insert, an
 * update or a delete and answers the statement that adds them to the summary; `rows` limits which rows count;
 * `tidy` runs after an update or a delete (e.g. dropping an emptied group); `truncate` runs on a truncate.
 */
export function keptFromRows(k: {
  table: string;
  name: string;
  add: (signedRows: string) => string;
  rows?: string;
  tidy?: string;
  truncate: string;
}): string[] {
  const fn = `paydesk_${k.table}_${k.name}`;
  const of = (set: 'new_rows' | 'old_rows') => `${set}${k.rows ? ` where ${k.rows}` : ''}`;
  return [
    `create function ${fn}() returns trigger language plpgsql security definer set search_path = public as $$
     begin
       if tg_op = 'INSERT' then
         ${k.add(`select 1 as sign, * from ${of('new_rows')}`)}
       elsif tg_op = 'UPDATE' then
         ${k.add(`select 1 as sign, * from ${of('new_rows')} union all select -1, * from ${of('old_rows')}`)}
         ${k.tidy ?? ''}
       elsif tg_op = 'DELETE' then
         ${k.add(`select -1 as sign, * from ${of('old_rows')}`)}
         ${k.tidy ?? ''}
       else
         ${k.truncate}
       end if;
       return null;
     end $$`,
    ...statementTriggers(k.table, k.name, fn),
  ];
}

/**
 * The four statement-level triggers (insert, update, delete, truncate) that run `fn` with the statement's transition
 * tables (`new_rows`, `old_rows`), named `<table>_<name>_<event>`.
 */
export function statementTriggers(table: string, name: string, fn: string): string[] {
  return [
    `create trigger ${table}_${name}_insert after insert on ${table} referencing new table as new_rows
       for each statement execute function ${fn}()`,
    `create trigger ${table}_${name}_update after update on ${table}
       referencing old table as old_rows new table as new_rows for each statement execute function ${fn}()`,
    `create trigger ${table}_${name}_delete after delete on ${table} referencing old table as old_rows
       for each statement execute function ${fn}()`,
    `create trigger ${table}_${name}_truncate after truncate on ${table}
       for each statement execute function ${fn}()`,
  ];
}

/**
 * For rows a keeping function writes again (`<keep>(ids integer[])`, null for every row: 2026_12_18_0010's
 * activation rows, 2026_12_18_0020's approval rows): the trigger function `<keep>_<table>` of a source table and its
 * statement triggers (`<table>_<name>_*`). `ids` selects, per kind of write, the ids whose rows the statement changes
 * (over the transition tables); null: every row; left out: none. A truncate writes every row again.
 */
export function keepingTriggers(
  keep: string,
  name: string,
  table: string,
  ids: { insert?: string | null; update: string | null; delete: string | null },
): string[] {
  const call = (select: string | null | undefined) =>
    select === undefined
      ? 'null;'
      : select === null
        ? `perform ${keep}(null);`
        : `perform ${keep}(array(${select}));`;
  return [
    definerFunction(
      `${keep}_${table}`,
      '',
      'trigger',
      `begin
         if tg_op = 'INSERT' then
           ${call(ids.insert)}
         elsif tg_op = 'UPDATE' then
           ${call(ids.update)}
         elsif tg_op = 'DELETE' then
           ${call(ids.delete)}
         else
           ${call(null)}
         end if;
         return null;
       end`,
    ),
    ...statementTriggers(table, name, `${keep}_${table}`),
  ];
}

/**
 * A plpgsql function that runs as its owner (SECURITY DEFINER: a request's role may not create or alter tables),
 * with the search path fixed so that no schema of the caller's can stand in for public's tables.
 */
export const definerFunction = (name: string, args: string, returns: string, body: string) =>
  `create function ${name}(${args}) returns ${returns} language plpgsql security definer
       set search_path = public as $$
     ${body}
     $$`;

/** The (id, columns) tuples of `rows` that are not in `others` (two transition tables): one EXCEPT. */
const rowsNotIn = (columns: readonly string[], rows: string, others: string) => {
  const tuple = ['id', ...columns].join(', ');
  return `select ${tuple} from ${rows} except select ${tuple} from ${others}`;
};

/**
 * In a statement-level update trigger, the ids of the rows whose `columns` the statement changed (or whose id it
 * changed), from the transition tables: one EXCEPT of (id, columns) tuples, which PostgreSQL works out by hashing or
 * sorting both sides, at any size. NULLs count as equal, as with IS DISTINCT FROM. An EXISTS over a join of the two
 * tables was planned as a nested loop (it expects an early match), and `id not in (select id from old_rows)` as a
 * plain subplan once the ids outgrow work_mem: both read one table once per row of the other, so updating all
 * 86,000 merchants took minutes (docs/bench.md, 2026-11-29).
 */
export const changedIds = (columns: readonly string[]) =>
  `select id from (${rowsNotIn(columns, 'new_rows', 'old_rows')}) changed`;

/**
 * In a statement-level update trigger, `value` (an expression over the table's columns, among `columns`) of each
 * row whose `columns` the statement changed, as it was and as it is: the new rows of the changed ones and the old
 * rows of the changed ones, each found with an EXCEPT of the two transition tables (see changedIds). An answer kept
 * in parts names the parts of both, so a row moved from one part to another raises both.
 */
export const changedBothWays = (columns: readonly string[], value: string) =>
  `select ${value} from (${rowsNotIn(columns, 'new_rows', 'old_rows')}) n
    union all
    select ${value} from (${rowsNotIn(columns, 'old_rows', 'new_rows')}) o`;

/**
 * For an answer kept in parts (platform/answerCache.ts, keptArrayInParts): the statement a trigger runs to raise the
 * versions of the part names `names` selects (one text column; nulls ignored), adding a name not seen before at 1.
 * Names are locked in their order, so two writers raising the same names never wait on each other in a circle.
 */
export const raiseParts = (answer: string, names: string) => `
  insert into answer_part_versions as v (name, part, version)
  select '${answer}', p, 1 from (select distinct n.p from (${names}) n(p) where n.p is not null) x
  order by p
  on conflict (name, part) do update set version = v.version + 1;`;

/**
 * An answer kept per month (a table page's count and totals, platform/tableQuery.ts KeptCounts): its row in
 * `answer_versions`, and statement triggers on `table` (`<table>_counts_parts_*`, function `paydesk_<answer>_parts`)
 * that raise the part of each month (`month` column, as text) a statement writes, the old and the new month of an
 * update; a truncate raises the answer's own version, which every month is checked against too.
 */
export function monthPartsAnswer(answer: string, table: string): string[] {
  const fn = `paydesk_${answer}_parts`;
  const months = (rows: string) =>
    raiseParts(answer, `select m::text from (select distinct month from ${rows}) d(m)`);
  return [
    `insert into answer_versions (name) values ('${answer}')`,
    partsTriggerFunction(fn, answer, {
      insert: months('new_rows'),
      update: months('(select month from new_rows union all select month from old_rows) r'),
      delete: months('old_rows'),
    }),
    ...statementTriggers(table, 'counts_parts', fn),
  ];
}

/**
 * The trigger function of an answer kept in parts: `body`'s statement for each kind of write (usually raiseParts
 * over the transition tables; nothing for an insert when none is given), and on a truncate, which has no rows, the
 * answer's own version in `answer_versions`, which every part is checked against.
 */
export const partsTriggerFunction = (
  fn: string,
  answer: string,
  body: { insert?: string; update: string; delete: string },
) =>
  `create or replace function ${fn}() returns trigger language plpgsql security definer set search_path = public as $$
   begin
     if tg_op = 'INSERT' then
       ${body.insert ?? 'null;'}
     elsif tg_op = 'UPDATE' then
       ${body.update}
     elsif tg_op = 'DELETE' then
       ${body.delete}
     else
       update answer_versions set version = version + 1 where name = '${answer}';
     end if;
     return null;
   end $$`;
