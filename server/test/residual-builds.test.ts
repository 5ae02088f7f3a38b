import { uploadTypes } from '@paydesk/domain';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dropStaleResidualBuilds } from '../src/areas/reports/imports';
import { Client, type TestApp, testApp } from './helpers';

/**
 * A residual month new to the table is built before the import's transaction opens and published by it
 * (areas/reports/imports.ts, 2026_12_08_0040_residual_builds): between the import's steps the database answers
 * anyone, the month is seen by nobody until it is published, and whatever a refused or overtaken import built is
 * dropped.
 *
 * While `gate.hold` is set, every bulk step (platform/signinFirst.ts: before each batch the import stages and each
 * index it makes) waits until the test lets it go, so the test looks at the database between the import's steps.
 */
const gate = vi.hoisted(() => ({
  hold: false,
  waiting: [] as (() => void)[],
  arrived: null as (() => void) | null,
}));
vi.mock('../src/platform/signinFirst', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/platform/signinFirst')>();
  return {
    ...actual,
    bulkStep: (db?: Parameters<typeof actual.bulkStep>[0]) =>
      gate.hold
        ? new Promise<void>((resolve) => {
            gate.waiting.push(resolve);
            gate.arrived?.();
          })
        : actual.bulkStep(db),
  };
});

let t: TestApp;
let admin: Client;
let merchants: { mid: string; partner_id: number; id: number }[] = [];

beforeAll(async () => {
  t = await testApp();
  admin = new Client(t.app);
  await admin.signin('admin@paydesk.local');
  ({ rows: merchants } = await sql<{
    mid: string;
    partner_id: number;
    id: number;
  }>`select mid, partner_id, id from merchants order by mid limit 40`.execute(t.db));
});
afterEach(() => {
  gate.hold = false;
  for (const go of gate.waiting.splice(0)) go();
});
afterAll(async () => {
  await t?.close();
});

const header = uploadTypes.residual_tsys.columns.map((c) => c.header);
/** A TSYS file of `month` (YYYY-MM): one row per merchant, nets from the row's number. */
async function residualFile(month: string, mids: string[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow(header);
  mids.forEach((mid, i) => {
    const net = 10 + i * 3.25;
    ws.addRow([
      month,
      mid,
      `DBA ${mid}`,
      `Agent ${i % 4}`,
      'Office',
      'Monthly',
      'ISO',
      i + 1,
      1000 + i,
      20 + i,
      30,
      net,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      30,
      4,
      net,
      null,
      12.5,
      net,
    ]);
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const builds = async () =>
  (
    await sql<{ name: string }>`
      select relname as name from pg_class where relkind = 'r' and relname like 'residuals_build_%' order by 1`.execute(
      t.db,
    )
  ).rows.map((r) => r.name);
const rowsOf = async (table: string) =>
  Number(
    (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.db)).rows[0]?.n,
  );
const monthRows = async (month: string) =>
  (
    await sql<{ mid: string; processor: string; net: string; home: string }>`
      select mid, processor, total_net::text as net, tableoid::regclass::text as home from residuals
      where month = ${month}::date order by processor, mid`.execute(t.db)
  ).rows;
/** The month totals of `month` against the sums of its rows (an independent oracle: the rows themselves). */
async function totalsAgree(month: string) {
  const { rows: kept } = await sql`
    select partner_id, n, total_net::text as net from residual_month_totals where month = ${month}::date
    order by partner_id`.execute(t.db);
  const { rows: summed } = await sql`
    select partner_id, count(*)::int as n, sum(total_net)::text as net from residuals where month = ${month}::date
    group by partner_id order by partner_id`.execute(t.db);
  expect(kept).toEqual(summed);
}
/** One residual row, as another import would have written it. */
const oneRow = (
  month: string,
  processor: string,
  net: number,
  m: { partner_id: number; id: number; mid: string },
) =>
  sql`insert into residuals (partner_id, merchant_id, month, processor, mid, dba, transactions, volume, income,
      gross, net, total_gross, total_payout, total_net, expense, profit_loss)
    values (${m.partner_id}, ${m.id}, ${month}::date, ${processor}, ${m.mid}, 'x', 1, 1, 1, 1, 1, 1, 1, ${net}, 1, 1)`.execute(
    t.db,
  );
const timeout = (ms: number) => new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), ms));

/**
 * Uploads `file` with the gate held, and at every step the import waits at, calls `look`; then lets it go on.
 * Answers the upload's answer.
 */
async function uploadStepByStep(
  file: Buffer,
  look: (step: number) => Promise<void>,
): Promise<LightMyRequestResponse> {
  gate.hold = true;
  let answer: LightMyRequestResponse | null = null;
  const upload = admin.upload('/api/uploadresidual_tsys', file).then((res) => {
    answer = res;
  });
  for (let step = 0; ; step++) {
    if (gate.waiting.length === 0) {
      await Promise.race([
        upload,
        new Promise<void>((resolve) => {
          gate.arrived = resolve;
        }),
      ]);
      gate.arrived = null;
    }
    if (answer) break;
    await look(step);
    for (const go of gate.waiting.splice(0)) go();
  }
  gate.hold = false;
  if (!answer) throw new Error('no answer');
  return answer;
}

describe('a residual month new to the table', () => {
  it('is built while the database answers others, seen by nobody, then published whole', async () => {
    const month = '2097-05';
    const mids = merchants.map((m) => m.mid);
    const seen: number[] = [];
    const res = await uploadStepByStep(await residualFile(month, mids), async () => {
      // The import's transaction is not open: another statement runs (on the embedded database, which has one
      // connection, it would wait for that transaction to end).
      const answered = await Promise.race([monthRows(`${month}-01`), timeout(15_000)]);
      expect(answered, 'a statement waited for the import').not.toBe('blocked');
      expect(answered).toEqual([]);
      const made = await builds();
      expect(made.length).toBeLessThanOrEqual(1);
      seen.push(made[0] ? await rowsOf(made[0]) : 0);
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows).toBe(mids.length);
    // Some step saw the whole month written to its build table, outside the transaction.
    expect(Math.max(...seen)).toBe(mids.length);
    const rows = await monthRows(`${month}-01`);
    expect(rows.map((r) => r.mid)).toEqual([...mids].sort());
    expect(new Set(rows.map((r) => r.home))).toEqual(new Set(['residuals_2097_05']));
    expect(await builds()).toEqual([]);
    await totalsAgree(`${month}-01`);
    // The partition adopted the indexes, the key and the merchant key made on the build table.
    const { rows: shape } = await sql<{ indexes: number; keys: number; checks: number }>`
      select (select count(*)::int from pg_inherits i join pg_index x on x.indexrelid = i.inhrelid
                where x.indrelid = 'residuals_2097_05'::regclass) as indexes,
             (select count(*)::int from pg_constraint k where k.conrelid = 'residuals_2097_05'::regclass
                and k.contype = 'f' and k.conparentid <> 0) as keys,
             (select count(*)::int from pg_constraint k where k.conrelid = 'residuals_2097_05'::regclass
                and k.conname like '%_bound') as checks`.execute(t.db);
    expect(shape[0]).toEqual({ indexes: 8, keys: 1, checks: 0 });
  });

  it('is dropped with everything else when the file is refused', async () => {
    const res = await uploadStepByStep(
      await residualFile('2097-06', [...merchants.map((m) => m.mid).slice(0, 5), 'NOPE-0001']),
      async () => {},
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().problems).toEqual([{ row: 7, column: 'MID', message: 'Unknown MID NOPE-0001' }]);
    expect(await monthRows('2097-06-01')).toEqual([]);
    expect(await builds()).toEqual([]);
    expect(await sql`select to_regclass('residuals_2097_06') as t`.execute(t.db)).toMatchObject({
      rows: [{ t: null }],
    });
  });

  it('given rows by someone else while it was built, has them replaced row by row instead', async () => {
    const month = '2097-08';
    const mids = merchants.map((m) => m.mid).slice(0, 12);
    const other = merchants[20];
    if (!other) throw new Error('too few merchants');
    let meddled = false;
    const res = await uploadStepByStep(await residualFile(month, mids), async () => {
      const [build] = await builds();
      if (meddled || !build || (await rowsOf(build)) < mids.length) return;
      // Another import published the month meanwhile: a TSYS row (which this file replaces) and a PPS row (kept).
      await sql`select paydesk_residual_partition(${`${month}-01`}::date)`.execute(t.db);
      for (const [processor, net] of [
        ['TSYS', 1],
        ['PPS', 2],
      ] as const)
        await oneRow(`${month}-01`, processor, net, other);
      meddled = true;
    });
    expect(meddled).toBe(true);
    expect(res.statusCode, res.body).toBe(200);
    const rows = await monthRows(`${month}-01`);
    expect(rows.map((r) => `${r.processor} ${r.mid}`)).toEqual([
      `PPS ${other.mid}`,
      ...[...mids].sort().map((mid) => `TSYS ${mid}`),
    ]);
    expect(await builds()).toEqual([]);
    await totalsAgree(`${month}-01`);
  });

  it('is built in a table shut to the ISO role, published only while its month has no rows, dropped when stale', async () => {
    const bare = async (month: string) =>
      String(
        (await sql<{ t: string }>`select paydesk_residual_bare(${month}::date) as t`.execute(t.db)).rows[0]
          ?.t,
      );
    const fresh = await bare('2097-10-01');
    expect(fresh).toMatch(/^residuals_build_\d{14}_[0-9a-f]{12}$/);
    const { rows: shut } = await sql<{ shut: boolean }>`
      select c.relrowsecurity and not has_table_privilege('paydesk_iso', c.oid, 'select, insert, update, delete') as shut
      from pg_class c where c.relname = ${fresh}`.execute(t.db);
    expect(shut).toEqual([{ shut: true }]);
    // A month with rows gets no build table.
    expect((await sql`select paydesk_residual_bare('2097-05-01') as t`.execute(t.db)).rows).toEqual([
      { t: null },
    ]);
    // Its month given rows meanwhile: not published, left for the import to drop.
    await sql`select paydesk_residual_partition('2097-10-01')`.execute(t.db);
    const first = merchants[0];
    if (!first) throw new Error('no merchants');
    await oneRow('2097-10-01', 'TSYS', 3, first);
    const published = await t.db
      .transaction()
      .execute((trx) =>
        sql<{ done: boolean }>`select paydesk_residual_publish(${fresh}, '2097-10-01') as done`.execute(trx),
      );
    expect(published.rows).toEqual([{ done: false }]);
    expect(await builds()).toContain(fresh);
    // Only build tables are dropped by these functions.
    await expect(sql`select paydesk_residual_drop_build('merchants')`.execute(t.db)).rejects.toThrow(
      /not a residual build table/,
    );
    // One left by a server stopped an hour ago and more is dropped when the server starts; a fresh one is not.
    const stale = await bare('2097-11-01');
    const old = stale.replace(/_\d{14}_/, '_20200101000000_');
    await sql`alter table ${sql.table(stale)} rename to ${sql.table(old)}`.execute(t.db);
    expect(await dropStaleResidualBuilds(t.db)).toBe(1);
    expect(await builds()).toEqual([fresh]);
    await sql`select paydesk_residual_drop_build(${fresh})`.execute(t.db);
    expect(await builds()).toEqual([]);
  });
});

describe("a residual month's kept count", () => {
  /** The month's filtered page as the screen asks it, and the same count and total from the rows themselves. */
  const page = async (month: string) =>
    (
      await admin.post('/api/ResidualSelfServe/query', {
        dt: month,
        filters: [{ id: 'TotalNet', kind: 'range', min: 20, max: null }],
        sort: [{ id: 'DBA', desc: false }],
        page: 2,
        pageSize: 10,
      })
    ).json() as { total: number; totals: Record<string, string> };
  const oracle = async (month: string) =>
    (
      await sql<{
        n: number;
        net: string;
      }>`select count(*)::int as n, coalesce(sum(total_net), 0)::text as net
        from residuals where month = ${month}::date and total_net >= 20`.execute(t.db)
    ).rows[0];
  const partVersion = async (month: string) =>
    (
      await sql<{ v: string | null }>`select (select version::text from answer_part_versions
        where name = 'residual_counts' and part = ${month}) as v`.execute(t.db)
    ).rows[0]?.v ?? null;
  const agrees = async (month: string) => {
    const [got, want] = [await page(month), await oracle(month)];
    expect(got.total).toBe(want?.n);
    expect(Number(got.totals.TotalNet)).toBeCloseTo(Number(want?.net), 2);
    return got.total;
  };

  it('follows a month published anew, a month replaced row by row and a row edited, and no other month', async () => {
    // The first month the screen shows, emptied and its partition dropped, so that an import publishes it anew.
    const month = '2021-01-01';
    const other = '2021-02-01';
    expect(await agrees(month)).toBeGreaterThan(10);
    await sql`delete from residuals where month = ${month}::date`.execute(t.db);
    await sql`drop table residuals_2021_01`.execute(t.db);
    expect(await agrees(month)).toBe(0);
    // Kept: asked again, the same.
    expect(await agrees(month)).toBe(0);
    const otherBefore = await partVersion(other);

    // Published: a build table attached as the month's partition, which fires no trigger.
    const mids = merchants.map((m) => m.mid);
    const res = await admin.upload('/api/uploadresidual_tsys', await residualFile('2021-01', mids));
    expect(res.statusCode, res.body).toBe(200);
    const published = await agrees(month);
    expect(published).toBeGreaterThan(10);

    // Replaced row by row: the month has rows now, and a shorter file replaces them.
    const again = await admin.upload(
      '/api/uploadresidual_tsys',
      await residualFile('2021-01', mids.slice(0, 25)),
    );
    expect(again.statusCode, again.body).toBe(200);
    const replaced = await agrees(month);
    expect(replaced).toBeLessThan(published);

    // One row edited under the bound.
    await sql`update residuals set total_net = 0 where month = ${month}::date and id = (
      select min(id) from residuals where month = ${month}::date and total_net >= 20)`.execute(t.db);
    expect(await agrees(month)).toBe(replaced - 1);
    expect(await partVersion(other)).toBe(otherBefore);
  });
});
