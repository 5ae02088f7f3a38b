import { PCI_MESSAGES, pciEndpoints } from '@paydesk/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRun } from '../src/areas/pci/billingRun';
import { loadPciConfig, loadRevShares, merchantRecordPages, merchantRecords } from '../src/areas/pci/engine';
import type { Db } from '../src/db/connect';
import { seedPciIfMissing } from '../src/db/seed/pci';
import { decryptPii, encryptPii } from '../src/platform/pii';
import { addUser, Client, clearOfMidnight, type TestApp, testApp } from './helpers';

/**
 * PCI compliance (docs/pci.md): the billing run and its NACHA file read back by a reader written here, the
 * double-run guarantee, bad routing numbers, capabilities, the filter-source whitelist, exception validation,
 * ISO scoping, masking, and commissions recomputed from the raw rows.
 */

let t: TestApp;
let finance: Client; // finance.admin: every PCI capability
let sales: Client; // no PCI capability
let partner: Client; // bound to Summit Payment Group
let restricted: Client; // pci_restricted only
let seeded: string; // the seed's PCI data as first loaded (see the last test)

/** The seed's PCI data in a comparable form (bank numbers decrypted: their stored text differs each time). */
async function pciSnapshot() {
  const merchants = await t.db.selectFrom('pci_merchants').selectAll().orderBy('mid').execute();
  const billing = await sql<Record<string, unknown>>`select month::text, mid, billing_flag, amount::text,
      iso_cost::text, iso_rev_share::text, amount_due::text, created_date::text, processed_date::text
    from pci_billing where month < date_trunc('month', now())::date order by month, mid`.execute(t.db);
  const runs = await sql<Record<string, unknown>>`select month::text, entries, total_debit::text, skipped
    from pci_billing_runs where month < date_trunc('month', now())::date order by month`.execute(t.db);
  return JSON.stringify({
    merchants: merchants.map((m) => [
      m.mid,
      m.pci_compliant,
      m.achieved_date,
      m.due_date,
      m.merchant_status,
      m.aba_number && decryptPii(m.aba_number),
      m.dda_number && decryptPii(m.dda_number),
      m.billing_type,
      m.pci_fee,
    ]),
    billing: billing.rows,
    runs: runs.rows,
  });
}

// This month and the last, read as the file starts, clear of a midnight (helpers.ts).
let thisMonth = { year: 0, month: 0 };
let monthStart = '';
let lastMonth = { year: 0, month: 0 };

beforeAll(async () => {
  await clearOfMidnight(300);
  const now = new Date();
  thisMonth = { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
  monthStart = `${thisMonth.year}-${String(thisMonth.month).padStart(2, '0')}-01`;
  lastMonth =
    thisMonth.month === 1
      ? { year: thisMonth.year - 1, month: 12 }
      : { year: thisMonth.year, month: thisMonth.month - 1 };
  t = await testApp();
  finance = new Client(t.app);
  await finance.signin('finance.admin@paydesk.local');
  sales = new Client(t.app);
  await sales.signin('sales@paydesk.local');
  partner = new Client(t.app);
  await partner.signin('partner@summitpayments.example');
  await addUser(t.db, 'pci.viewer@paydesk.local', 'finance', { capabilities: ['pci_restricted'] });
  restricted = new Client(t.app);
  await restricted.signin('pci.viewer@paydesk.local');
  seeded = await pciSnapshot();
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------- an independent NACHA reader

/** ABA check digit, written here again so the test does not trust the code under test. */
const checkDigitOk = (r: string) => {
  const d = [...r].map(Number);
  const at = (i: number) => d[i] ?? Number.NaN;
  return (
    /^\d{9}$/.test(r) &&
    (3 * (at(0) + at(3) + at(6)) + 7 * (at(1) + at(4) + at(7)) + (at(2) + at(5) + at(8))) % 10 === 0
  );
};

interface ParsedEntry {
  routing: string;
  account: string;
  cents: number;
  id: string;
  name: string;
  trace: string;
}

function readNacha(text: string) {
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  for (const [i, l] of lines.entries()) expect(l.length, `record ${i + 1}`).toBe(94);
  expect(lines.length % 10).toBe(0);
  const types = lines.map((l) => l[0]);
  expect(types[0]).toBe('1');
  expect(types[1]).toBe('5');
  const header = lines[0] ?? '';
  expect(header.slice(1, 3)).toBe('01');
  expect(header.slice(34, 37)).toBe('094');
  expect(header.slice(37, 39)).toBe('10');
  const batch = lines[1] ?? '';
  expect(batch.slice(1, 4)).toBe('225');
  expect(batch.slice(50, 53)).toBe('PPD');
  const entries: ParsedEntry[] = [];
  let i = 2;
  while (lines[i]?.[0] === '6') {
    const l = lines[i] ?? '';
    expect(l.slice(1, 3)).toBe('27');
    entries.push({
      routing: l.slice(3, 12),
      account: l.slice(12, 29).trimEnd(),
      cents: Number(l.slice(29, 39)),
      id: l.slice(39, 54).trimEnd(),
      name: l.slice(54, 76).trimEnd(),
      trace: l.slice(79, 94),
    });
    i += 1;
  }
  const batchControl = lines[i] ?? '';
  const fileControl = lines[i + 1] ?? '';
  expect(batchControl[0]).toBe('8');
  expect(fileControl[0]).toBe('9');
  for (const pad of lines.slice(i + 2)) expect(pad).toBe('9'.repeat(94));
  const hash = entries.reduce((s, e) => s + BigInt(e.routing.slice(0, 8)), 0n) % 10_000_000_000n;
  const debits = entries.reduce((s, e) => s + e.cents, 0);
  expect(Number(batchControl.slice(4, 10))).toBe(entries.length);
  expect(BigInt(batchControl.slice(10, 20))).toBe(hash);
  expect(Number(batchControl.slice(20, 32))).toBe(debits);
  expect(Number(batchControl.slice(32, 44))).toBe(0);
  expect(Number(fileControl.slice(1, 7))).toBe(1);
  expect(Number(fileControl.slice(7, 13))).toBe(lines.length / 10);
  expect(Number(fileControl.slice(13, 21))).toBe(entries.length);
  expect(BigInt(fileControl.slice(21, 31))).toBe(hash);
  expect(Number(fileControl.slice(31, 43))).toBe(debits);
  // Block count: the records before padding, in blocks of 10.
  expect(Math.ceil((i + 2) / 10)).toBe(lines.length / 10);
  return { entries, debits };
}

const cents = (s: string) => Math.round(Number(s) * 100);

// ---------------------------------------------------------------- tests

describe('the demo data', () => {
  it('gives every merchant a PCI record with encrypted bank numbers and bills past months', async () => {
    const { rows } = await sql<{ n: number; merchants: number; billed: number; runs: number }>`select
        (select count(*)::int from pci_merchants) as n, (select count(*)::int from merchants) as merchants,
        (select count(*)::int from pci_billing) as billed, (select count(*)::int from pci_billing_runs) as runs`.execute(
      t.db,
    );
    expect(rows[0]?.n).toBe(rows[0]?.merchants);
    expect(rows[0]?.billed).toBeGreaterThan(0);
    expect(rows[0]?.runs).toBeGreaterThan(0);
    const sample = await t.db
      .selectFrom('pci_merchants')
      .selectAll()
      .where('aba_number', 'is not', null)
      .limit(20)
      .execute();
    for (const m of sample) {
      expect(m.aba_number).not.toMatch(/^\d+$/);
      expect(decryptPii(m.aba_number as string).slice(-4)).toBe(m.aba_last4);
    }
  });
});

describe('masking of T/R and DDA', () => {
  it('shows the last 4 to most users and the clear numbers to historic-merchant editors', async () => {
    const masked = (await sales.get('/api/pci/GetMerchants')).json() as {
      mid: string;
      tr: string | null;
      dda: string | null;
    }[];
    expect(masked.length).toBeGreaterThan(0);
    for (const m of masked.slice(0, 50)) {
      if (m.tr) expect(m.tr).toMatch(/^•{5}\d{4}$/);
      if (m.dda) expect(m.dda).toMatch(/^•{4}\d{4}$/);
    }
    const clear = (await finance.get('/api/pci/GetMerchants')).json() as typeof masked;
    const stored = await t.db
      .selectFrom('pci_merchants')
      .select(['mid', 'aba_number'])
      .where('mid', '=', clear[0]?.mid ?? '')
      .executeTakeFirstOrThrow();
    expect(clear[0]?.tr).toBe(decryptPii(stored.aba_number as string));
    const page = (await sales.post('/api/app/pci/merchants/query', { pageSize: 25 })).json();
    expect(page.rows[0].tr).toMatch(/^•{5}\d{4}$/);
  });
});

describe('the merchants table', () => {
  it('pages, counts, filters and sorts the open merchants as plain SQL over the raw rows does', async () => {
    const open = `from pci_merchants p join merchants m on m.id = p.merchant_id join partners pa on pa.id = p.partner_id
      where p.merchant_status = ''`;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, '', 'p.mid'],
      [
        { filters: [{ id: 'pci_compliant', kind: 'select', values: ['Non-Compliant'] }], page: 2 },
        'and not p.pci_compliant',
        'p.mid',
      ],
      [
        {
          filters: [{ id: 'pci_compliant', kind: 'select', values: ['Compliant'] }],
          sort: [{ id: 'iso_name', desc: true }],
        },
        'and p.pci_compliant',
        'pa.account_name desc, p.merchant_id',
      ],
      [{ filters: [{ id: 'dba_name', kind: 'text', value: 's' }] }, "and lower(m.dba) like 's%'", 'p.mid'],
      [{ sort: [{ id: 'dba_name', desc: true }], page: 2 }, '', 'm.dba desc, p.merchant_id'],
      [{ sort: [{ id: 'dba_name', desc: false }] }, '', 'm.dba, p.merchant_id'],
      [{ sort: [{ id: 'open_date', desc: false }], page: 3 }, '', 'm.opened_on, p.merchant_id'],
    ];
    for (const [request, where, order] of cases) {
      const page = (await finance.post('/api/app/pci/merchants/query', { pageSize: 25, ...request })).json();
      const { rows } = await sql<{ mid: string }>`select p.mid ${sql.raw(open)} ${sql.raw(where)}
        order by ${sql.raw(order)}`.execute(t.db);
      const from = ((request.page as number | undefined) ?? 1) * 25 - 25;
      expect(rows.length, where).toBeGreaterThan(from + 5);
      expect(page.total, where).toBe(rows.length);
      expect(
        page.rows.map((r: { mid: string }) => r.mid),
        `${where} ${order}`,
      ).toEqual(rows.slice(from, from + 25).map((r) => r.mid));
    }
  });

  it('counts a page without a filter from counts kept as merchants close, reopen, change ISO, leave and return', async () => {
    const check = async (what: string) => {
      const { rows: kept } = await sql<{ partner_id: number; n: number }>`
        select partner_id, sum(merchants)::int as n from pci_open_compliance
        group by partner_id order by partner_id`.execute(t.db);
      const { rows: counted } = await sql<{ partner_id: number; n: number }>`
        select partner_id, count(*)::int as n from pci_merchants where merchant_status = ''
        group by partner_id order by partner_id`.execute(t.db);
      expect(kept, what).toEqual(counted);
      const page = (await finance.post('/api/app/pci/merchants/query', { pageSize: 25 })).json();
      expect(page.total, what).toBe(counted.reduce((n, r) => n + r.n, 0));
      // The same per compliance, and a page filtered by it.
      const { rows: keptByKind } = await sql<{ partner_id: number; pci_compliant: boolean; n: number }>`
        select partner_id, pci_compliant, merchants as n from pci_open_compliance order by 1, 2`.execute(
        t.db,
      );
      const { rows: countedByKind } = await sql<{ partner_id: number; pci_compliant: boolean; n: number }>`
        select partner_id, pci_compliant, count(*)::int as n from pci_merchants where merchant_status = ''
        group by 1, 2 order by 1, 2`.execute(t.db);
      expect(keptByKind, what).toEqual(countedByKind);
      for (const kind of ['Compliant', 'Non-Compliant']) {
        const filtered = (
          await finance.post('/api/app/pci/merchants/query', {
            pageSize: 25,
            filters: [{ id: 'pci_compliant', kind: 'select', values: [kind] }],
          })
        ).json();
        const expected = countedByKind
          .filter((r) => r.pci_compliant === (kind === 'Compliant'))
          .reduce((n, r) => n + r.n, 0);
        expect(filtered.total, `${what}: ${kind}`).toBe(expected);
      }
      for (const values of [['Compliant', 'Unknown'], ["Compliant') or true --"], [1]]) {
        const refused = await finance.post('/api/app/pci/merchants/query', {
          pageSize: 25,
          filters: [{ id: 'pci_compliant', kind: 'select', values }],
        });
        expect(refused.statusCode, JSON.stringify(values)).toBe(400);
      }
      const { rows: own } = await sql<{ n: number }>`select count(*)::int as n from pci_merchants p
        join partners pa on pa.id = p.partner_id
        where p.merchant_status = '' and pa.account_name = 'Summit Payment Group'`.execute(t.db);
      const scoped = (await partner.post('/api/app/pci/merchants/query', { pageSize: 25 })).json();
      expect(scoped.total, what).toBe(own[0]?.n);
    };
    await check('as seeded');
    // A closed merchant still billed (an old merchant the edit call serves), and an open merchant of Summit.
    const a = await sql<{
      mid: string;
    }>`select p.mid from pci_merchants p join merchants m on m.id = p.merchant_id
      where p.merchant_status = '' and m.status = 'Closed' order by p.mid limit 1`
      .execute(t.db)
      .then((r) => r.rows[0]);
    const b = await sql<{ mid: string; partner_id: number }>`
      select p.mid, p.partner_id from pci_merchants p join partners pa on pa.id = p.partner_id
      join merchants m on m.id = p.merchant_id
      where p.merchant_status = '' and m.status <> 'Closed' and pa.account_name = 'Summit Payment Group'
      order by p.mid limit 1`
      .execute(t.db)
      .then((r) => r.rows[0]);
    if (!a || !b) throw new Error('The seed has no old merchant still billed, or no open Summit merchant');
    const other = await sql<{
      id: number;
    }>`select id from partners where id <> ${b.partner_id} order by id limit 1`
      .execute(t.db)
      .then((r) => r.rows[0]?.id as number);
    const whole = await t.db
      .selectFrom('pci_merchants')
      .selectAll()
      .where('mid', '=', b.mid)
      .executeTakeFirstOrThrow();

    const status = (value: string) =>
      finance.post('/api/pci/UpdateHistoricMerchantStatus', { mid: a.mid, column: 'merchant_status', value });
    const close = await status('C');
    expect(close.statusCode, close.body).toBe(200);
    await check('an old merchant closed for PCI');
    await t.db.updateTable('pci_merchants').set({ partner_id: other }).where('mid', '=', b.mid).execute();
    await check('a Summit merchant moved to another ISO');
    await t.db.deleteFrom('pci_merchants').where('mid', '=', b.mid).execute();
    await check('that one deleted');
    await t.db.insertInto('pci_merchants').values(whole).execute();
    await check('it returns, to Summit');
    const reopen = await status('');
    expect(reopen.statusCode, reopen.body).toBe(200);
    await check('the old merchant reopened');
  });
});

describe('the DBA kept on each PCI row', () => {
  it('is always its merchant’s, however either is written, and the table finds a merchant by its new name', async () => {
    const drift = async () =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from pci_merchants p join merchants m on m.id = p.merchant_id
          where p.dba is distinct from m.dba`.execute(t.db)
      ).rows[0]?.n;
    expect(await drift()).toBe(0);
    const row = await t.db
      .selectFrom('pci_merchants as p')
      .innerJoin('merchants as m', 'm.id', 'p.merchant_id')
      .select(['p.merchant_id', 'p.mid', 'm.dba'])
      .where('p.merchant_status', '=', '')
      .orderBy('p.mid')
      .executeTakeFirstOrThrow();
    const other = await t.db
      .selectFrom('merchants')
      .select(['id', 'dba'])
      .where('id', '<>', row.merchant_id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const otherPci = await t.db
      .selectFrom('pci_merchants')
      .selectAll()
      .where('merchant_id', '=', other.id)
      .executeTakeFirstOrThrow();
    const byName = async (value: string) =>
      (
        await finance.post('/api/app/pci/merchants/query', {
          pageSize: 25,
          filters: [{ id: 'dba_name', kind: 'text', value }],
        })
      ).json() as { total: number; rows: { mid: string; dba_name: string }[] };
    try {
      // The merchant renamed: its PCI row follows, and the table finds and shows it by the new name only.
      await t.db
        .updateTable('merchants')
        .set({ dba: 'Zzyzx Renamed Diner' })
        .where('id', '=', row.merchant_id)
        .execute();
      expect(await drift()).toBe(0);
      const found = await byName('zzyzx renamed');
      expect(found.total).toBe(1);
      expect(found.rows[0]).toMatchObject({ mid: row.mid, dba_name: 'Zzyzx Renamed Diner' });
      const search = (
        await finance.post('/api/app/pci/merchants/query', { pageSize: 25, search: 'Zzyzx' })
      ).json() as { total: number };
      expect(search.total).toBe(1);
      // A DBA written to the PCI row itself is replaced by the merchant's.
      await t.db
        .updateTable('pci_merchants')
        .set({ dba: 'Not The Merchant' })
        .where('mid', '=', row.mid)
        .execute();
      expect(await drift()).toBe(0);
      // The PCI row moved to another merchant (whose own PCI row is away) takes that merchant's DBA.
      await t.db.deleteFrom('pci_merchants').where('merchant_id', '=', other.id).execute();
      await sql`update pci_merchants set merchant_id = ${other.id} where mid = ${row.mid}`.execute(t.db);
      expect(await drift()).toBe(0);
      expect((await byName('zzyzx renamed')).total).toBe(0);
      await sql`update pci_merchants set merchant_id = ${row.merchant_id} where mid = ${row.mid}`.execute(
        t.db,
      );
    } finally {
      await t.db.updateTable('merchants').set({ dba: row.dba }).where('id', '=', row.merchant_id).execute();
    }
    // A PCI row written with any DBA (here the other merchant's own, returning) takes its merchant's.
    await t.db
      .insertInto('pci_merchants')
      .values({ ...otherPci, dba: 'Not The Merchant Either' })
      .execute();
    expect(await drift()).toBe(0);
    expect((await byName(row.dba.slice(0, 6))).rows.some((r) => r.mid === row.mid)).toBe(true);
  });
});

describe('the billing run', () => {
  it('refuses a month not chosen or not started', async () => {
    expect(
      (await finance.post('/api/pci/GetACHBilling', { year: thisMonth.year, month: -1 })).statusCode,
    ).toBe(400);
    const next =
      thisMonth.month === 12
        ? { year: thisMonth.year, month: 12 }
        : { ...thisMonth, month: thisMonth.month + 1 };
    if (next.month !== thisMonth.month)
      expect((await finance.post('/api/pci/GetACHBilling', next)).json().message).toMatch(/not started/);
    expect((await finance.post('/api/pci/GetBilling', { year: 2021, month: 5 })).statusCode).toBe(400);
    // A month long past that was never run is not billed now.
    const old = await finance.post('/api/pci/GetACHBilling', { year: 2022, month: 1 });
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toMatch(/current or the previous month/);
    expect(
      await t.db.selectFrom('pci_billing_runs').select('id').where('month', '=', '2022-01-01').execute(),
    ).toEqual([]);
  });

  it('writes a valid NACHA file that matches the billing rows; a second run answers the same file', async () => {
    // A merchant open for billing gets a routing number with a bad check digit: reported, left out, not billed.
    const victim = await t.db
      .selectFrom('pci_merchants')
      .select(['mid', 'merchant_id'])
      .where('merchant_status', '=', '')
      .where('pci_compliant', '=', false)
      .orderBy('mid')
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('pci_merchants')
      .set({ aba_number: encryptPii('021000022'), aba_last4: '0022' })
      .where('mid', '=', victim.mid)
      .execute();

    // Nothing billed yet this month (an answer the cache keeps until the run writes billing rows).
    expect((await sales.post('/api/pci/GetBilling', thisMonth)).json()).toEqual([]);

    const first = await finance.post('/api/pci/GetACHBilling', thisMonth);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-disposition']).toContain('ACHBilling.txt');
    expect(first.headers['x-pci-run']).toBe('created');
    const { entries, debits } = readNacha(first.body);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(checkDigitOk(e.routing), e.routing).toBe(true);
    // No name keeps a character the spec strips.
    for (const e of entries) expect(e.name).not.toMatch(/[#$&()\-,.']/);

    const billed = await t.db
      .selectFrom('pci_billing')
      .select(['mid', 'amount', 'merchant_id'])
      .where('month', '=', monthStart)
      .execute();
    expect(billed.length).toBe(entries.length);
    // The entry carries the MID's rightmost 15 characters (the field's width).
    const byMid = new Map(billed.map((b) => [b.mid.slice(-15), cents(String(b.amount))]));
    for (const e of entries) expect(e.cents, e.id).toBe(byMid.get(e.id));
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    expect(debits).toBe(billed.reduce((s, b) => s + cents(String(b.amount)), 0));
    // The entries debit the stored bank numbers.
    const banks = await t.db
      .selectFrom('pci_merchants')
      .select(['mid', 'aba_number', 'dda_number'])
      .where(
        'mid',
        'in',
        entries.slice(0, 20).map((e) => e.id),
      )
      .execute();
    for (const b of banks) {
      const e = entries.find((x) => x.id === b.mid.slice(-15));
      expect(e?.routing).toBe(decryptPii(b.aba_number as string));
      expect(e?.account).toBe(decryptPii(b.dda_number as string));
    }

    expect(entries.some((e) => e.id === victim.mid.slice(-15))).toBe(false);
    const report = (await finance.post('/api/app/pci/billingRun', thisMonth)).json();
    expect(report.run.entries).toBe(entries.length);
    expect(report.run.skipped).toContainEqual(
      expect.objectContaining({ mid: victim.mid, reason: expect.stringMatching(/check digit/) }),
    );
    // Every skipped merchant is absent from the file and from the billing rows.
    for (const s of report.run.skipped) {
      expect(byMid.has(s.mid.slice(-15))).toBe(false);
    }

    const second = await finance.post('/api/pci/GetACHBilling', thisMonth);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['x-pci-run']).toBe('existing');
    expect(Number(second.headers['x-pci-skipped'])).toBe(report.run.skipped.length);
    const after = await t.db
      .selectFrom('pci_billing')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('month', '=', monthStart)
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(billed.length);
    const audits = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'pci.billing_run')
      .execute();
    expect(audits.length).toBe(2);

    const billingRows = (await sales.post('/api/pci/GetBilling', thisMonth)).json();
    expect(billingRows.length).toBe(billed.length);
  });

  it('bills a month once when two runs start at the same moment: one writes, the other answers its file', async () => {
    // The month again from nothing (the test above ran it).
    await t.db.deleteFrom('pci_billing').where('month', '=', monthStart).execute();
    await t.db.deleteFrom('pci_billing_runs').where('month', '=', monthStart).execute();
    const expected = await t.db
      .selectFrom('pci_merchants')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('merchant_status', '=', '')
      .executeTakeFirstOrThrow();

    const [a, b] = await Promise.all([
      finance.post('/api/pci/GetACHBilling', thisMonth),
      finance.post('/api/pci/GetACHBilling', thisMonth),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.headers['x-pci-run'], b.headers['x-pci-run']].sort()).toEqual(['created', 'existing']);
    expect(b.body).toBe(a.body);
    const runs = await t.db
      .selectFrom('pci_billing_runs')
      .select(['id', 'entries'])
      .where('month', '=', monthStart)
      .execute();
    expect(runs).toHaveLength(1);
    const rows = await t.db
      .selectFrom('pci_billing')
      .select([
        sql<number>`count(*)::int`.as('n'),
        sql<number>`count(distinct merchant_id)::int`.as('merchants'),
      ])
      .where('month', '=', monthStart)
      .executeTakeFirstOrThrow();
    expect(rows.n).toBe(rows.merchants);
    expect(rows.n).toBe(runs[0]?.entries);
    expect(readNacha(a.body).entries).toHaveLength(rows.n);
    // Never more debits than open merchants.
    expect(rows.n).toBeLessThanOrEqual(expected.n);
  });

  it('computes commissions as billed × rev share − ISO cost with the share in effect on the billing date', async () => {
    const month = `${lastMonth.year}-${String(lastMonth.month).padStart(2, '0')}-01`;
    const raw = await t.db
      .selectFrom('pci_billing as b')
      .innerJoin('partners as pa', 'pa.id', 'b.partner_id')
      .select(['b.mid', 'b.amount', 'b.iso_cost', 'b.created_date', 'pa.account_name', 'b.partner_id'])
      .where('b.month', '=', month)
      .execute();
    const shares = await t.db.selectFrom('pci_rev_shares').selectAll().execute();
    const expected = new Map<string, { share: string; due: number }>();
    for (const r of raw) {
      const inEffect = shares
        .filter((s) => s.partner_id === r.partner_id && String(s.effective_date) <= String(r.created_date))
        .sort((a, b) => String(b.effective_date).localeCompare(String(a.effective_date)))[0];
      if (!inEffect) continue;
      const billed = BigInt(cents(String(r.amount)));
      const basis = BigInt(cents(String(inEffect.rev_share)));
      const share = (billed * basis * 2n + 10_000n) / 20_000n; // half up, billed and share positive
      expected.set(r.mid, {
        share: Number(inEffect.rev_share).toFixed(2),
        due: Number(share) - cents(String(r.iso_cost)),
      });
    }
    const answer = (await finance.post('/api/pci/GetCommissions', lastMonth)).json() as {
      mid: string;
      iso_rev_share: string;
      amount_due: string;
    }[];
    expect(answer.length).toBe(expected.size);
    expect(answer.length).toBeGreaterThan(0);
    for (const row of answer) {
      const want = expected.get(row.mid);
      expect(row.iso_rev_share, row.mid).toBe(want?.share);
      expect(cents(row.amount_due), row.mid).toBe(want?.due);
    }
  });
});

describe('answers PostgreSQL writes as JSON', () => {
  it('fit their output schemas exactly: nothing stripped, nothing refused', async () => {
    for (const [endpoint, body] of [
      [pciEndpoints.getBilling, lastMonth],
      [pciEndpoints.getCommissions, lastMonth],
    ] as const) {
      const answer = (await finance.post(endpoint.path, body)).json() as Record<string, unknown>[];
      expect(answer.length, endpoint.path).toBeGreaterThan(0);
      const parsed = endpoint.output.safeParse(answer);
      expect(parsed.success, endpoint.path).toBe(true);
      expect(parsed.data).toEqual(answer);
    }
  });

  it('list a month’s billing by MID and its commissions by ISO, then MID, as plain SQL orders them', async () => {
    const month = `${lastMonth.year}-${String(lastMonth.month).padStart(2, '0')}-01`;
    const billing = (await finance.post('/api/pci/GetBilling', lastMonth)).json() as { mid: string }[];
    const { rows: byMid } = await sql<{
      mid: string;
    }>`select mid from pci_billing where month = ${month}::date
      order by mid`.execute(t.db);
    expect(billing.map((r) => r.mid)).toEqual(byMid.map((r) => r.mid));
    const commissions = (await finance.post('/api/pci/GetCommissions', lastMonth)).json() as {
      mid: string;
    }[];
    const { rows: byIso } = await sql<{ mid: string }>`select b.mid from pci_billing b
      join partners pa on pa.id = b.partner_id
      where b.month = ${month}::date and b.iso_rev_share is not null order by pa.account_name, b.mid`.execute(
      t.db,
    );
    expect(commissions.map((r) => r.mid)).toEqual(byIso.map((r) => r.mid));
    expect(new Set(commissions.map((r) => r.mid)).size).toBeGreaterThan(10);
  });

  // The oracle: the month's billing rows by plain SQL, each joined to its merchant and ISO, against the tables'
  // pages, counts and totals, with and without a filter, search or sort on a joined column (the toolkit joins the
  // merchant and ISO only then).
  it('pages, counts and totals the billing and commissions tables as plain SQL does', async () => {
    const month = `${lastMonth.year}-${String(lastMonth.month).padStart(2, '0')}-01`;
    for (const [path, only, sums, byDefault] of [
      ['/api/app/pci/billing/query', 'true', { amount: 'amount' }, 'b.mid, b.id'],
      [
        '/api/app/pci/commissions/query',
        'b.iso_rev_share is not null',
        { iso_cost: 'iso_cost', amount_billed: 'amount', amount_due: 'amount_due' },
        'pa.account_name, b.mid, b.id',
      ],
    ] as const) {
      for (const [request, where, order] of [
        [{}, 'true', byDefault],
        [{ page: 3 }, 'true', byDefault],
        [{ sort: [{ id: 'dba_name', desc: false }] }, 'true', 'm.dba, b.id'],
        [
          { filters: [{ id: 'iso_name', kind: 'text', value: 'summit' }] },
          "lower(pa.account_name) like 'summit%'",
          byDefault,
        ],
        [
          { filters: [{ id: 'billing_flag', kind: 'select', values: ['ANF', 'NCF'] }] },
          "b.billing_flag in ('ANF', 'NCF')",
          byDefault,
        ],
        [
          { filters: [{ id: 'billing_flag', kind: 'select', values: ['MTF'] }], page: 2 },
          "b.billing_flag = 'MTF'",
          byDefault,
        ],
        [
          { search: 'a' },
          `(lower(b.mid) like 'a%' or lower(m.dba) like 'a%'${
            path.includes('commissions') ? " or lower(pa.account_name) like 'a%'" : ''
          })`,
          byDefault,
        ],
      ] as const) {
        const res = await finance.post(path, { ...lastMonth, pageSize: 25, ...request });
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json();
        const { rows } = await sql<{ mid: string; totals: Record<string, string> }>`
          select b.mid, json_build_object(${sql.join(
            Object.entries(sums).map(
              ([id, column]) => sql`${id}::text, (sum(b.${sql.ref(column)}) over ())::numeric(14, 2)::text`,
            ),
          )}) as totals
          from pci_billing b join merchants m on m.id = b.merchant_id join partners pa on pa.id = b.partner_id
          where b.month = ${month}::date and ${sql.raw(only)} and ${sql.raw(where)}
          order by ${sql.raw(order)}`.execute(t.db);
        const what = `${path} ${JSON.stringify(request)}`;
        expect(rows.length, what).toBeGreaterThan(0);
        const from = ('page' in request ? request.page : 1) * 25 - 25;
        expect(page.total, what).toBe(rows.length);
        expect(page.totals, what).toEqual(rows[0]?.totals);
        expect(
          page.rows.map((r: { mid: string }) => r.mid),
          what,
        ).toEqual(rows.slice(from, from + 25).map((r) => r.mid));
      }
    }
  });
});

describe('kept billing totals', () => {
  // The oracle: the billing rows grouped afresh, against the table the trigger keeps, after each kind of write.
  const kept = (db: Db) =>
    sql<{
      g: string;
    }>`select concat_ws('|', month, partner_id, billing_flag, iso_rev_share, billed_rows, amount,
        iso_cost, amount_due) as g from pci_billing_totals order by 1`.execute(db);
  const afresh = (db: Db) =>
    sql<{
      g: string;
    }>`select concat_ws('|', month, partner_id, billing_flag, iso_rev_share, count(*), sum(amount),
        sum(iso_cost), sum(amount_due)) as g from pci_billing group by month, partner_id, billing_flag, iso_rev_share
        order by 1`.execute(db);
  const same = async (what: string, db: Db = t.db) => {
    const [k, a] = [(await kept(db)).rows.map((r) => r.g), (await afresh(db)).rows.map((r) => r.g)];
    expect(k.length, what).toBeGreaterThan(10);
    expect(k, what).toEqual(a);
  };

  it('counts and totals each month per ISO, billing type and rev share, whatever writes the rows', async () => {
    await same('as migrated and seeded');
    const month = `${lastMonth.year}-${String(lastMonth.month).padStart(2, '0')}-01`;
    const { rows: saved } = await sql<
      Record<string, unknown>
    >`select * from pci_billing where month = ${month}::date
      order by id limit 40`.execute(t.db);
    const ids = saved.map((r) => r.id as number);
    await t.db
      .transaction()
      .execute(async (trx) => {
        // A new amount, another billing type, a share taken away and one given; then rows deleted and written back.
        await sql`update pci_billing set amount = amount + 1.25 where id = any(${ids.slice(0, 10)})`.execute(
          trx,
        );
        await sql`update pci_billing set billing_flag = case billing_flag when 'MTF' then 'ANF' else 'MTF' end
        where id = any(${ids.slice(10, 20)})`.execute(trx);
        await sql`update pci_billing set iso_rev_share = null, amount_due = null
        where id = any(${ids.slice(20, 30)}) and iso_rev_share is not null`.execute(trx);
        await sql`update pci_billing set iso_rev_share = 12.5, amount_due = amount * 0.125 - iso_cost
        where id = any(${ids.slice(30, 40)}) and iso_rev_share is null`.execute(trx);
        await same('after updates', trx);
        await sql`delete from pci_billing where id = any(${ids})`.execute(trx);
        await same('after a delete', trx);
        for (const row of saved)
          await trx
            .insertInto('pci_billing')
            .values(row as never)
            .execute();
        await same('after the rows are written back', trx);
        throw new Error('undo');
      })
      .catch((err: Error) => {
        if (err.message !== 'undo') throw err;
      });
    await same('after the writes are undone');
  });
});

describe('capabilities', () => {
  it('refuses each restricted call without its capability (403)', async () => {
    const calls: [Client, string, 'GET' | 'POST', unknown][] = [
      [sales, '/api/pci/GetHistoricMerchants', 'GET', undefined],
      [sales, '/api/pci/GetFees', 'GET', undefined],
      [sales, '/api/pci/GetACHBilling', 'POST', lastMonth],
      [restricted, '/api/pci/GetACHBilling', 'POST', lastMonth],
      [sales, '/api/pci/UpdateDefaultFee', 'POST', { flag: 'MTF', amount: 1, iso_cost: 0 }],
      [restricted, '/api/pci/UpdateDefaultFee', 'POST', { flag: 'MTF', amount: 1, iso_cost: 0 }],
      [restricted, '/api/pci/InsertFee', 'POST', []],
      [restricted, '/api/pci/InsertFrequency', 'POST', []],
      [restricted, '/api/pci/UpdateDefaultFrequency', 'POST', { flag: 'ANF' }],
      [
        restricted,
        '/api/pci/UpdateHistoricMerchantStatus',
        'POST',
        { mid: 'x', column: 'merchant_status', value: '' },
      ],
      [sales, '/api/pci/AddRevShare', 'POST', { iso_name: 'x', rev_share: 1, effective_date: '2025-01-01' }],
      [sales, '/api/pci/GetFilterSourceValues', 'POST', { table: 'merchants.public', field: 'state' }],
      [partner, '/api/app/pci/oldMerchants/query', 'POST', {}],
    ];
    for (const [client, url, method, body] of calls) {
      const res = method === 'GET' ? await client.get(url) : await client.post(url, body);
      expect(res.statusCode, url).toBe(403);
    }
    expect((await restricted.get('/api/pci/GetFees')).statusCode).toBe(200);
    const unchanged = await t.db
      .selectFrom('pci_default_fees')
      .select('amount')
      .where('fee_flag', '=', 'MTF')
      .executeTakeFirstOrThrow();
    expect(String(unchanged.amount)).toBe('19.95');
  });
});

describe('ISO scoping', () => {
  it('shows an ISO-bound user only their ISO’s merchants, billing and commissions', async () => {
    for (const [url, body] of [
      ['/api/pci/GetBilling', lastMonth],
      ['/api/pci/GetCommissions', lastMonth],
    ] as const) {
      const rows = (await partner.post(url, body)).json() as { iso_name: string }[];
      expect(rows.length, url).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.iso_name))).toEqual(new Set(['Summit Payment Group']));
    }
    const merchants = (await partner.get('/api/pci/GetMerchants')).json() as { iso_name: string }[];
    expect(new Set(merchants.map((r) => r.iso_name))).toEqual(new Set(['Summit Payment Group']));
    const page = (await partner.post('/api/app/pci/merchants/query', { pageSize: 500 })).json();
    const all = (await finance.post('/api/app/pci/merchants/query', { pageSize: 25 })).json();
    expect(page.total).toBe(merchants.length);
    expect(all.total).toBeGreaterThan(page.total);
    // The billing and commissions tabs' counts and totals (from the kept totals, 2026_12_10_0020) are the ISO's own.
    const month = `${lastMonth.year}-${String(lastMonth.month).padStart(2, '0')}-01`;
    for (const [path, only, column, total] of [
      ['/api/app/pci/billing/query', 'true', 'amount', 'amount'],
      ['/api/app/pci/commissions/query', 'b.iso_rev_share is not null', 'amount_due', 'amount_due'],
    ] as const) {
      for (const [request, where] of [
        [{}, 'true'],
        [{ filters: [{ id: 'billing_flag', kind: 'select', values: ['MTF'] }] }, "b.billing_flag = 'MTF'"],
      ] as const) {
        const { rows } = await sql<{ n: number; sum: string }>`select count(*)::int as n,
            coalesce(sum(b.${sql.ref(column)}), 0)::numeric(14, 2)::text as sum
          from pci_billing b join partners pa on pa.id = b.partner_id
          where pa.account_name = 'Summit Payment Group' and b.month = ${month}::date and ${sql.raw(only)}
            and ${sql.raw(where)}`.execute(t.db);
        const res = await partner.post(path, { ...lastMonth, pageSize: 25, ...request });
        const what = `${path} ${JSON.stringify(request)}`;
        expect(res.statusCode, res.body).toBe(200);
        expect(rows[0]?.n, what).toBeGreaterThan(0);
        expect(res.json().total, what).toBe(rows[0]?.n);
        expect(res.json().totals[total], what).toBe(rows[0]?.sum);
      }
    }
  });
});

describe('the filter sources', () => {
  it('answers the whitelisted filters’ sources and refuses anything else', async () => {
    const values = await finance.post('/api/pci/GetFilterSourceValues', {
      table: 'merchants.public',
      field: 'profile',
    });
    expect(values.statusCode).toBe(200);
    expect(values.json().map((v: { value: string }) => v.value)).toContain('Traditional');
    const displays = await finance.post('/api/pci/GetFilterSourceDisplays', {
      table: 'groups.public',
      field_value: 'group_id',
      field_display: 'group_name',
    });
    expect(displays.statusCode).toBe(200);
    expect(displays.json()[0]).toEqual({ value: expect.any(String), display: expect.any(String) });
    for (const body of [
      { table: 'users.public', field: 'password_hash' },
      { table: 'merchants.public', field: 'email' },
      { table: 'merchants.public', field: 'state; drop table merchants' },
      { table: 'public.merchants', field: 'state' },
    ]) {
      const res = await finance.post('/api/pci/GetFilterSourceValues', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe('Not the source of a PCI filter');
    }
    const bad = await finance.post('/api/pci/GetFilterSourceDisplays', {
      table: 'groups.public',
      field_value: 'group_id',
      field_display: 'rev_share',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('exceptions and defaults', () => {
  it('refuses empty fields with the spec’s message and changes nothing; saves and reprices the merchants', async () => {
    const before = (await finance.get('/api/pci/GetFees')).json();
    const row = {
      fee_flag: 'MTF',
      amount: '9.99',
      iso_cost: '1.00',
      filter_id: 5,
      filter_value: 'TX',
      filter_operator_id: 1,
    };
    const empty = await finance.post('/api/pci/InsertFee', [[row], [{ ...row, amount: null }]]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(PCI_MESSAGES.emptyFields);
    const wrongType = await finance.post('/api/pci/InsertFee', [[{ ...row, filter_operator_id: 3 }]]);
    expect(wrongType.statusCode).toBe(400);
    expect((await finance.get('/api/pci/GetFees')).json()).toEqual(before);
    const freqEmpty = await finance.post('/api/pci/InsertFrequency', [
      [{ frequency: 0, filter_id: 5, filter_value: 'TX', filter_operator_id: 1 }],
    ]);
    expect(freqEmpty.json().message).toBe(PCI_MESSAGES.emptyFields);

    // Texas merchants first: a compliant monthly Texas merchant now shows 9.99.
    const saved = await finance.post('/api/pci/InsertFee', [[row], ...groupsOf(before)]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ success: true, message: PCI_MESSAGES.saved });
    const fees = (await finance.get('/api/pci/GetFees')).json();
    expect(fees[0]).toMatchObject({ fee_flag: 'MTF', amount: '9.99', filter_value: 'TX', fee_group: 1 });
    const texan = await sql<{
      pci_fee: string;
      billing_type: string;
    }>`select p.pci_fee::text as pci_fee, p.billing_type
      from pci_merchants p join merchants m on m.id = p.merchant_id
      where m.state = 'TX' and p.billing_type = 'MTF' and m.profile <> 'Unassigned' limit 1`.execute(t.db);
    expect(texan.rows[0]?.pci_fee).toBe('9.99');

    const defaults = await finance.post('/api/pci/UpdateDefaultFee', {
      flag: 'NCF',
      amount: 45,
      iso_cost: '11.5',
    });
    expect(defaults.statusCode).toBe(200);
    expect((await finance.get('/api/pci/GetDefaultFees')).json()).toContainEqual({
      fee_flag: 'NCF',
      amount: '45.00',
      iso_cost: '11.50',
    });
    expect(
      (await finance.post('/api/pci/UpdateDefaultFee', { flag: 'SMF', amount: 1, iso_cost: 0 })).statusCode,
    ).toBe(400);
  });

  it('adds and deletes rev shares', async () => {
    const add = await finance.post('/api/pci/AddRevShare', {
      iso_name: 'Summit Payment Group',
      rev_share: '33.5',
      effective_date: '2030-01-01',
    });
    expect(add.statusCode, add.body).toBe(200);
    const list = (await finance.get('/api/pci/GetPCIRevShares')).json();
    expect(list).toContainEqual({
      iso_name: 'Summit Payment Group',
      rev_share: '33.50',
      effective_date: '2030-01-01',
    });
    expect(
      (
        await finance.post('/api/pci/AddRevShare', {
          iso_name: 'Nobody',
          rev_share: 1,
          effective_date: '2030-01-01',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await finance.post('/api/pci/AddRevShare', {
          iso_name: 'Summit Payment Group',
          rev_share: 101,
          effective_date: '2030-01-01',
        })
      ).statusCode,
    ).toBe(400);
    const del = await finance.post('/api/pci/DeleteRevShare', {
      iso_name: 'Summit Payment Group',
      effective_date: '2030-01-01',
    });
    expect(del.statusCode).toBe(200);
    expect((await finance.get('/api/pci/GetPCIRevShares')).json()).not.toContainEqual(
      expect.objectContaining({ effective_date: '2030-01-01' }),
    );
  });
});

describe('old merchants', () => {
  // The oracle: the PCI rows whose merchant is closed, by the merchants' own status, against the tab's pages and
  // totals and the kept counts (each PCI row keeps its merchant's status and each ISO's count is kept by triggers,
  // 2026_12_09_0040), after each kind of change.
  it('lists the closed merchants’ rows as their merchants’ status says, through every kind of change', async () => {
    const check = async (what: string) => {
      const { rows: counted } = await sql<{ partner_id: number; n: number }>`
        select p.partner_id, count(*)::int as n from pci_merchants p join merchants m on m.id = p.merchant_id
        where m.status = 'Closed' group by 1 order by 1`.execute(t.db);
      const { rows: kept } = await sql<{ partner_id: number; n: number }>`
        select partner_id, merchants as n from pci_closed_counts order by 1`.execute(t.db);
      expect(kept, what).toEqual(counted);
      const total = counted.reduce((n, r) => n + r.n, 0);
      expect(total, what).toBeGreaterThan(25);
      // The older client's whole list: every closed merchant's row with its merchant's DBA and ISO, by MID.
      const { rows: closedRows } = await sql<{ mid: string; dba_name: string; iso_name: string }>`
        select p.mid, m.dba as dba_name, pa.account_name as iso_name from pci_merchants p
        join merchants m on m.id = p.merchant_id join partners pa on pa.id = p.partner_id
        where m.status = 'Closed' order by p.mid`.execute(t.db);
      const whole = await finance.get('/api/pci/GetHistoricMerchants');
      expect(whole.statusCode, whole.body).toBe(200);
      expect(
        whole.json().map((r: { mid: string; dba_name: string; iso_name: string }) => ({
          mid: r.mid,
          dba_name: r.dba_name,
          iso_name: r.iso_name,
        })),
        what,
      ).toEqual(closedRows);
      // The list is kept until a PCI row or a partner is written; each ask is audited with the rows it showed.
      const { rows: reveal } = await sql<{ subject: string; rows: number }>`
        select subject, (details->>'rows')::int as rows from audit_log
        where action = 'pii.reveal' and actor_email = 'finance.admin@paydesk.local' order by id desc limit 1`.execute(
        t.db,
      );
      expect(reveal[0], what).toEqual({
        subject: `${closedRows.length} old merchants`,
        rows: closedRows.length,
      });
      for (const [request, where] of [
        [{}, 'true'],
        [{ page: 2 }, 'true'],
        [{ sort: [{ id: 'dba_name', desc: true }] }, 'true'],
        [
          { filters: [{ id: 'iso_name', kind: 'text', value: 'summit' }] },
          "lower(pa.account_name) like 'summit%'",
        ],
        [{ search: '8' }, "(lower(p.mid) like '8%' or lower(m.dba) like '8%')"],
      ] as const) {
        const page = await finance.post('/api/app/pci/oldMerchants/query', { pageSize: 25, ...request });
        expect(page.statusCode, page.body).toBe(200);
        const sorted = 'sort' in request ? 'm.dba desc, p.merchant_id' : 'p.mid, p.merchant_id';
        const { rows } = await sql<{ mid: string }>`select p.mid from pci_merchants p
          join merchants m on m.id = p.merchant_id join partners pa on pa.id = p.partner_id
          where m.status = 'Closed' and ${sql.raw(where)} order by ${sql.raw(sorted)}`.execute(t.db);
        const from = ('page' in request ? request.page : 1) * 25 - 25;
        expect(page.json().total, `${what} ${JSON.stringify(request)}`).toBe(rows.length);
        expect(
          page.json().rows.map((r: { mid: string }) => r.mid),
          `${what} ${JSON.stringify(request)}`,
        ).toEqual(rows.slice(from, from + 25).map((r) => r.mid));
      }
    };
    await check('as seeded');
    const { rows: picks } = await sql<{ id: number; status: string; partner_id: number }>`
      (select m.id, m.status, p.partner_id from merchants m join pci_merchants p on p.merchant_id = m.id
        where m.status = 'Open' order by m.id limit 2)
      union all
      (select m.id, m.status, p.partner_id from merchants m join pci_merchants p on p.merchant_id = m.id
        where m.status = 'Closed' order by m.id limit 1)`.execute(t.db);
    const [open1, open2, closed1] = picks as [(typeof picks)[0], (typeof picks)[0], (typeof picks)[0]];
    const { rows: others } = await sql<{ id: number }>`
      select id from partners where id <> ${closed1.partner_id} order by id limit 1`.execute(t.db);
    const other = others[0]?.id as number;
    const { rows: saved } = await sql<Record<string, unknown>>`
      select * from pci_merchants where merchant_id = ${open2.id}`.execute(t.db);
    try {
      await sql`update merchants set status = 'Closed' where id = ${open1.id}`.execute(t.db);
      await check('a merchant closed');
      await sql`update merchants set status = 'Open' where id = ${closed1.id}`.execute(t.db);
      await check('a merchant reopened');
      await sql`update merchants set status = 'Closed' where id = ${closed1.id}`.execute(t.db);
      await sql`update pci_merchants set partner_id = ${other} where merchant_id = ${closed1.id}`.execute(
        t.db,
      );
      await check('a closed merchant’s PCI row moved to another ISO');
      await sql`update partners set account_name = account_name || ' Renamed' where id = ${other}`.execute(
        t.db,
      );
      await check('that ISO renamed');
      // The list is kept in parts by MID prefix: a closed merchant's edit raises its prefix's version alone, an
      // open merchant's PCI row none.
      const versions = async () =>
        (
          await sql<{ part: string; version: string }>`select part, version::text as version
            from answer_part_versions where name = 'pci_historic' order by part`.execute(t.db)
        ).rows;
      const raised = (before: { part: string; version: string }[], after: typeof before) =>
        after.filter((a) => before.find((b) => b.part === a.part)?.version !== a.version).map((a) => a.part);
      const { rows: mids } = await sql<{
        id: number;
        mid: string;
      }>`select merchant_id as id, mid from pci_merchants
        where merchant_id in (${closed1.id}, ${open2.id})`.execute(t.db);
      const beforeDba = await versions();
      await sql`update merchants set dba = dba || ' Renamed' where id = ${closed1.id}`.execute(t.db);
      expect(raised(beforeDba, await versions())).toEqual([
        mids.find((m) => m.id === closed1.id)?.mid.slice(0, 8),
      ]);
      await check('a closed merchant’s DBA changed');
      const beforeOpen = await versions();
      await sql`update merchants set dba = dba where id = ${open2.id}`.execute(t.db);
      await sql`update pci_merchants set dba = dba where merchant_id = ${open2.id}`.execute(t.db);
      expect(raised(beforeOpen, await versions())).toEqual([]);
      // A value written to the kept column directly is replaced by the merchant's.
      await sql`update pci_merchants set merchant_closed = true where merchant_id = ${open2.id}`.execute(
        t.db,
      );
      await check('the kept status written directly');
      await sql`update merchants set status = 'Closed' where id = ${open2.id}`.execute(t.db);
      await sql`delete from pci_merchants where merchant_id = ${open2.id}`.execute(t.db);
      await check('a closed merchant’s PCI row deleted');
      await sql`insert into pci_merchants select * from json_populate_record(null::pci_merchants, ${JSON.stringify(saved[0])})`.execute(
        t.db,
      );
      await check('and written again');
    } finally {
      await sql`update merchants set status = 'Open' where id in (${open1.id}, ${open2.id})`.execute(t.db);
      await sql`update pci_merchants set partner_id = ${closed1.partner_id} where merchant_id = ${closed1.id}`.execute(
        t.db,
      );
      await sql`update partners set account_name = left(account_name, -8) where id = ${other} and account_name like '% Renamed'`.execute(
        t.db,
      );
      await sql`update merchants set dba = left(dba, -8) where id = ${closed1.id} and dba like '% Renamed'`.execute(
        t.db,
      );
    }
    await check('changed back');
  });

  it('changes the status and bank numbers of a closed merchant, checking each value', async () => {
    const old = (await finance.get('/api/pci/GetHistoricMerchants')).json() as {
      mid: string;
      merchant_status: string;
      aba_number: string | null;
    }[];
    const closed = old.find((m) => m.merchant_status === 'C');
    expect(closed).toBeDefined();
    const mid = closed?.mid as string;
    const open = await finance.post('/api/pci/UpdateHistoricMerchantStatus', {
      mid,
      column: 'merchant_status',
      value: '',
    });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().row.merchant_status).toBe('');
    const badStatus = await finance.post('/api/pci/UpdateHistoricMerchantStatus', {
      mid,
      column: 'merchant_status',
      value: 'X',
    });
    expect(badStatus.statusCode).toBe(400);
    const badRouting = await finance.post('/api/pci/UpdateHistoricMerchantStatus', {
      mid,
      column: 'aba_number',
      value: '021000022',
    });
    expect(badRouting.statusCode).toBe(400);
    const routing = await finance.post('/api/pci/UpdateHistoricMerchantStatus', {
      mid,
      column: 'aba_number',
      value: '021000021',
    });
    expect(routing.json().row.aba_number).toBe('021000021');
    const stored = await t.db
      .selectFrom('pci_merchants')
      .select(['aba_number', 'aba_last4'])
      .where('mid', '=', mid)
      .executeTakeFirstOrThrow();
    expect(stored.aba_number).not.toContain('021000021');
    expect(stored.aba_last4).toBe('0021');
    // The whole list asked before the change is not the one answered after it.
    const after = (await finance.get('/api/pci/GetHistoricMerchants')).json() as typeof old;
    expect(after.find((m) => m.mid === mid)).toMatchObject({ merchant_status: '', aba_number: '021000021' });
    expect(
      (
        await finance.post('/api/pci/UpdateHistoricMerchantStatus', {
          mid: 'nope',
          column: 'dda_number',
          value: '1234',
        })
      ).statusCode,
    ).toBe(404);
    const masked = (await restricted.get('/api/pci/GetHistoricMerchants')).json() as {
      mid: string;
      aba_number: string;
    }[];
    expect(masked.find((m) => m.mid === mid)?.aba_number).toBe('•••••0021');
  });
});

describe('the seed', () => {
  // Last: it empties the PCI tables.
  it('adds PCI data to a demo database without it, the same for the same seed and day', async () => {
    expect(await seedPciIfMissing(t.db)).toBeNull();
    for (const table of [
      'pci_billing',
      'pci_billing_runs',
      'pci_merchants',
      'pci_fees',
      'pci_frequencies',
      'pci_rev_shares',
    ] as const)
      await t.db.deleteFrom(table).execute();
    const report = await seedPciIfMissing(t.db);
    expect(report?.merchants).toBeGreaterThan(0);
    expect(await pciSnapshot()).toBe(seeded);
  });
});

/** GetFees rows back into the grouped list InsertFee takes. */
function groupsOf(rows: { fee_group: number }[]) {
  const groups = new Map<number, unknown[]>();
  for (const r of rows) groups.set(r.fee_group, [...(groups.get(r.fee_group) ?? []), r]);
  return [...groups.values()];
}

describe('the billing run’s pages of merchants', () => {
  it('hand over every open merchant once, in MID order, whatever the page size', async () => {
    const { rows } = await sql<{ mid: string }>`select mid from pci_merchants where merchant_status = ''
      order by mid`.execute(t.db);
    expect(rows.length).toBeGreaterThan(7);
    const seen: string[] = [];
    let pages = 0;
    for await (const page of merchantRecordPages(t.db, { openOnly: true }, 7)) {
      pages++;
      expect(page.length).toBeLessThanOrEqual(7);
      seen.push(...page.map((m) => m.mid));
    }
    expect(seen).toEqual(rows.map((r) => r.mid));
    expect(pages).toBe(Math.ceil(rows.length / 7));
  });
});

describe('the billing run a page at a time', () => {
  const month = '2099-01-01';
  const originator = {
    odfiRouting: '021000021',
    odfiName: 'TEST BANK',
    companyId: '1234567890',
    companyName: 'PAYDESK TEST',
    immediateOrigin: '1234567890',
    immediateOriginName: 'PAYDESK TEST',
    entryDescription: 'PCI FEE',
  };
  class RollBack extends Error {}

  /** A run of `month` on `day` in a transaction rolled back: its file, its billing rows, and each row's ISO
   * share as plain SQL finds it (the latest of the ISO's shares effective on or before the day). */
  async function rolledBackRun(day: string, pageSize?: number, before?: (trx: typeof t.db) => Promise<void>) {
    let out: { file: string; rows: Record<string, unknown>[]; shares: Record<string, unknown>[] } | undefined;
    await t.db
      .transaction()
      .execute(async (trx) => {
        await before?.(trx);
        const [config, shares] = await Promise.all([loadPciConfig(trx), loadRevShares(trx)]);
        const merchants =
          pageSize === undefined
            ? await merchantRecords(trx, { openOnly: true })
            : merchantRecordPages(trx, { openOnly: true }, pageSize);
        const result = await writeRun(trx, {
          month,
          createdAt: new Date(`${day}T15:00:00Z`),
          effectiveDate: day,
          createdBy: 'test',
          merchants,
          config,
          shares,
          originator,
        });
        const rows = await sql<Record<string, unknown>>`select mid, merchant_id, partner_id, billing_flag,
            amount::text, iso_cost::text, iso_rev_share::text, amount_due::text
          from pci_billing where month = ${month}::date order by mid`.execute(trx);
        const expected = await sql<Record<string, unknown>>`select b.mid, (select s.rev_share::text
              from pci_rev_shares s join partners p on p.id = s.partner_id
              where p.account_name = pa.account_name and s.effective_date <= ${day}::date
              order by s.effective_date desc limit 1) as iso_rev_share
          from pci_billing b join partners pa on pa.id = b.partner_id
          where b.month = ${month}::date order by b.mid`.execute(trx);
        out = { file: result.file, rows: rows.rows, shares: expected.rows };
        throw new RollBack();
      })
      .catch((e) => {
        if (!(e instanceof RollBack)) throw e;
      });
    if (!out) throw new Error('the run did not finish');
    return out;
  }

  it('bills the same rows and writes the same file as a run of every merchant at once, with the share in effect on the day', async () => {
    // A day before some ISO's later share takes effect, so the share in effect is not simply the latest.
    const { rows: days } = await sql<{
      day: string;
      later: number;
    }>`select (min(effective_date) - 1)::text as day,
        count(distinct partner_id)::int as later
      from pci_rev_shares where effective_date > (select min(effective_date) from pci_rev_shares)`.execute(
      t.db,
    );
    const day = days[0]?.day as string;
    expect(days[0]?.later).toBeGreaterThan(0);

    const whole = await rolledBackRun(day);
    const paged = await rolledBackRun(day, 7);
    expect(whole.rows.length).toBeGreaterThan(100);
    expect(paged.rows).toEqual(whole.rows);
    expect(paged.file).toBe(whole.file);
    // Each row's share is the one plain SQL finds for its ISO on the day, and some ISO has a later one.
    expect(paged.rows.map((r) => [r.mid, r.iso_rev_share])).toEqual(
      paged.shares.map((r) => [r.mid, r.iso_rev_share]),
    );
    expect(paged.rows.some((r) => r.iso_rev_share !== null)).toBe(true);
  });

  it('stops at a page whose rows cannot be written, and nothing of the run is kept', async () => {
    // A billing row of the month already there for the 30th open merchant: the fifth page of seven fails.
    const { rows } = await sql<{ merchant_id: number; partner_id: number; mid: string }>`select merchant_id,
        partner_id, mid from pci_merchants where merchant_status = '' order by mid offset 29 limit 1`.execute(
      t.db,
    );
    const victim = rows[0];
    if (!victim) throw new Error('no open merchant');
    const run = rolledBackRun('2026-03-02', 7, async (trx) => {
      const { rows: runs } = await sql<{ id: number }>`select id from pci_billing_runs limit 1`.execute(trx);
      await sql`insert into pci_billing (month, run_id, merchant_id, partner_id, mid, billing_flag, amount,
          iso_cost, created_date) values (${month}::date, ${runs[0]?.id}, ${victim.merchant_id},
          ${victim.partner_id}, ${victim.mid}, 'MTF', 1, 0, '2026-03-02')`.execute(trx);
    });
    await expect(run).rejects.toThrow(/duplicate key|unique/i);
    const { rows: left } = await sql<{ n: number }>`select count(*)::int as n from pci_billing
      where month = ${month}::date`.execute(t.db);
    expect(left[0]?.n).toBe(0);
  });
});
