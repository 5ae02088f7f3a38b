import { addMonths, PCI_FILTERS, PCI_FIRST_BILLING_YEAR, type PciFilterDef } from '@paydesk/domain';
import { sql } from 'kysely';
import { nextBusinessDay, originatorFrom, writeRun } from '../../areas/pci/billingRun';
import { loadPciConfig, loadRevShares, merchantRecords, refreshMerchantFees } from '../../areas/pci/engine';
import { loadConfig } from '../../config';
import { encryptPii } from '../../platform/pii';
import type { Db } from '../connect';
import { Random } from './random';

/**
 * PCI demo data (docs/pci.md, docs/data.md), deterministic for a seed and a day:
 * - every merchant's PCI record: about 78 % compliant (achieved within months of opening, renewed yearly, due a
 *   year after), the rest never achieved or lapsed; bank routing (a few with a bad check digit, which the
 *   billing run reports and leaves out) and DDA (a few missing), encrypted; closed merchants mostly closed for
 *   PCI too ('C'), a few still billed;
 * - the configuration: default fees (MTF 19.95, ANF 119.00, NCF 39.95, with ISO costs), a few fee and
 *   billing-type exceptions, and PCI rev shares for most ISOs (some changed during the last 18 months);
 * - past months billed and processed (the last 12 months, the last 3 at the large scale) through the same run as
 *   the Billing tab's button, with the facts each merchant had then; the current month is left to run.
 */

const FIRST_BILLING_MONTH = `${PCI_FIRST_BILLING_YEAR}-01-01`;
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const addYears = (day: string, n: number) =>
  `${Number(day.slice(0, 4)) + n}${day.slice(4)}`.replace('-02-29', '-02-28');

/** A routing number with a valid check digit (or, when `bad`, one off). First two digits: a Federal Reserve district. */
function routingNumber(random: Random, bad: boolean): string {
  const district = String(random.pick([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 21, 22, 26, 31])).padStart(
    2,
    '0',
  );
  const body = district + String(random.int(0, 999_999)).padStart(6, '0');
  const d = [...body].map(Number);
  const weighted = [3, 7, 1, 3, 7, 1, 3, 7].reduce((s, w, i) => s + w * (d[i] ?? 0), 0);
  const check = (10 - (weighted % 10)) % 10;
  return body + String(bad ? (check + 1) % 10 : check);
}

const filterId = (field: PciFilterDef['field']) => PCI_FILTERS.find((f) => f.field === field)?.id ?? 0;

export interface PciSeedReport {
  merchants: number;
  months: number;
}

export async function generatePci(
  db: Db,
  options: { seed: number; today: string; log?: (line: string) => void },
) {
  const log = options.log ?? (() => {});
  const random = new Random(options.seed ^ 0x5c1_0da7);
  const { today } = options;
  const merchants = await db
    .selectFrom('merchants')
    .select(['id', 'mid', 'partner_id', 'status', 'opened_on', 'closed_on'])
    .orderBy('id')
    .execute();

  const columns = {
    merchant: [] as number[],
    partner: [] as number[],
    mid: [] as string[],
    compliant: [] as boolean[],
    achieved: [] as (string | null)[],
    due: [] as (string | null)[],
    status: [] as string[],
    aba: [] as (string | null)[],
    abaLast4: [] as (string | null)[],
    dda: [] as (string | null)[],
    ddaLast4: [] as (string | null)[],
  };
  for (const m of merchants) {
    const opened = String(m.opened_on).slice(0, 10);
    let compliant = random.chance(0.78);
    let achieved: string | null = null;
    let due: string | null = null;
    if (compliant) {
      achieved = addDays(opened, random.int(15, 120));
      // Renewed every year: the latest anniversary on or before today.
      while (addYears(achieved, 1) <= today) achieved = addYears(achieved, 1);
      if (achieved > today) {
        compliant = false;
        achieved = null;
      } else due = addYears(achieved, 1);
    }
    if (!compliant) {
      const lapsed = random.chance(0.3) && addYears(opened, 2) < today;
      achieved = lapsed ? addDays(opened, random.int(15, 120)) : null;
      due = lapsed && achieved ? addYears(achieved, 1) : addDays(opened, 90);
    }
    const aba = routingNumber(random, random.chance(0.006));
    const dda = random.chance(0.002)
      ? null
      : String(random.int(1, 9)) + String(random.int(0, 99_999_999_999)).padStart(random.int(7, 11), '0');
    columns.merchant.push(m.id);
    columns.partner.push(m.partner_id);
    columns.mid.push(m.mid);
    columns.compliant.push(compliant);
    columns.achieved.push(achieved);
    columns.due.push(due);
    columns.status.push(m.status === 'Closed' && !random.chance(0.1) ? 'C' : '');
    columns.aba.push(encryptPii(aba));
    columns.abaLast4.push(aba.slice(-4));
    columns.dda.push(dda === null ? null : encryptPii(dda));
    columns.ddaLast4.push(dda === null ? null : dda.slice(-4));
  }
  const chunk = 10_000;
  for (let i = 0; i < columns.merchant.length; i += chunk) {
    const part = <T>(a: T[]) => a.slice(i, i + chunk);
    await sql`insert into pci_merchants (merchant_id, partner_id, mid, pci_compliant, achieved_date, due_date,
        merchant_status, aba_number, aba_last4, dda_number, dda_last4)
      select * from unnest(${part(columns.merchant)}::int[], ${part(columns.partner)}::int[],
        ${part(columns.mid)}::text[], ${part(columns.compliant)}::boolean[], ${part(columns.achieved)}::date[],
        ${part(columns.due)}::date[], ${part(columns.status)}::text[], ${part(columns.aba)}::text[],
        ${part(columns.abaLast4)}::text[], ${part(columns.dda)}::text[], ${part(columns.ddaLast4)}::text[])`.execute(
      db,
    );
  }
  log(`  ${merchants.length} PCI merchants`);

  // The configuration.
  for (const [flag, amount, cost] of [
    ['MTF', '19.95', '5.00'],
    ['ANF', '119.00', '30.00'],
    ['NCF', '39.95', '10.00'],
  ] as const)
    await db
      .updateTable('pci_default_fees')
      .set({ amount, iso_cost: cost })
      .where('fee_flag', '=', flag)
      .execute();
  const partners = await db.selectFrom('partners').select(['id', 'account_name']).orderBy('id').execute();
  const named = partners.slice(0, 2).map((p) => p.account_name);
  await db
    .insertInto('pci_fees')
    .values([
      // A lower program fee for two ISOs' traditional merchants.
      ...[
        { filter_id: filterId('iso_name'), filter_value: named.join('|'), filter_operator_id: 1 },
        { filter_id: filterId('merchant_profile'), filter_value: 'Traditional', filter_operator_id: 1 },
      ].map((f) => ({ fee_flag: 'MTF' as const, amount: '14.95', iso_cost: '4.00', fee_group: 1, ...f })),
      // Unassigned merchants are not billed the monthly fee.
      {
        fee_flag: 'SMF',
        amount: '0.00',
        iso_cost: '0.00',
        filter_id: filterId('merchant_profile'),
        filter_value: 'Unassigned',
        filter_operator_id: 1,
        fee_group: 2,
      },
      // High Risk merchants pay a higher non-compliance fee.
      {
        fee_flag: 'NCF',
        amount: '59.95',
        iso_cost: '15.00',
        filter_id: filterId('merchant_profile'),
        filter_value: 'High Risk',
        filter_operator_id: 1,
        fee_group: 3,
      },
    ])
    .execute();
  // Esquire merchants opened before 2024 pay once a year.
  await db
    .insertInto('pci_frequencies')
    .values([
      {
        frequency: 'ANF',
        filter_id: filterId('sponsor_bank'),
        filter_value: 'Esquire',
        filter_operator_id: 1,
        frequency_group: 1,
      },
      {
        frequency: 'ANF',
        filter_id: filterId('open_date'),
        filter_value: '2024-01-01',
        filter_operator_id: 3,
        frequency_group: 1,
      },
    ])
    .execute();
  const shares: { partner_id: number; rev_share: string; effective_date: string }[] = [];
  for (const p of partners) {
    if (!random.chance(0.75)) continue;
    shares.push({
      partner_id: p.id,
      rev_share: random.pick(['20.00', '25.00', '30.00', '35.00', '40.00']),
      effective_date: FIRST_BILLING_MONTH,
    });
    if (random.chance(0.3))
      shares.push({
        partner_id: p.id,
        rev_share: random.pick(['22.50', '27.50', '32.50', '45.00']),
        effective_date: addMonths(`${today.slice(0, 7)}-01`, -random.int(1, 18)),
      });
  }
  for (let i = 0; i < shares.length; i += 1000)
    await db
      .insertInto('pci_rev_shares')
      .values(shares.slice(i, i + 1000))
      .execute();
  await refreshMerchantFees(db);

  // Past months, billed and processed.
  const config = await loadPciConfig(db);
  const revShares = await loadRevShares(db);
  const records = await merchantRecords(db, { openOnly: false });
  const facts = new Map(merchants.map((m) => [m.id, m]));
  const achievedOn = new Map(columns.merchant.map((id, i) => [id, columns.achieved[i] ?? null]));
  const originator = originatorFrom(loadConfig());
  const currentMonth = `${today.slice(0, 7)}-01`;
  const count = merchants.length > 20_000 ? 3 : 12;
  let months = 0;
  for (let back = count; back >= 1; back--) {
    const month = addMonths(currentMonth, -back);
    if (month < FIRST_BILLING_MONTH) continue;
    const runDay = await nextBusinessDay(db, addDays(month, 1));
    const lastDay = addDays(addMonths(month, 1), -1);
    const openThen = records
      .filter((r) => {
        const m = facts.get(r.merchant_id);
        const closed = m?.closed_on ? String(m.closed_on).slice(0, 10) : null;
        return r.open_date <= lastDay && (closed === null ? r.merchant_status === '' : closed >= month);
      })
      .map((r) => {
        const achieved = achievedOn.get(r.merchant_id) ?? null;
        return { ...r, pci_compliant: r.pci_compliant && achieved !== null && achieved <= runDay };
      });
    await writeRun(db, {
      month,
      createdAt: new Date(`${runDay}T14:00:00Z`),
      effectiveDate: await nextBusinessDay(db, runDay),
      createdBy: 'finance.admin@paydesk.local',
      merchants: openThen,
      config,
      shares: revShares,
      originator,
    });
    months += 1;
  }
  log(`  ${months} months of PCI billing`);
  return { merchants: merchants.length, months };
}

/**
 * A merchant the live demo approves enters the PCI program: not yet compliant, due 90 days after opening, with
 * bank numbers drawn from its MID (so the same merchant always gets the same ones), billed from then on.
 */
export async function enrollPciMerchant(db: Db, merchantId: number): Promise<void> {
  const m = await db
    .selectFrom('merchants')
    .select(['mid', 'partner_id', 'opened_on'])
    .where('id', '=', merchantId)
    .executeTakeFirstOrThrow();
  const random = new Random([...m.mid].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0, 17));
  const aba = routingNumber(random, false);
  const dda = String(random.int(1, 9)) + String(random.int(0, 999_999_999)).padStart(9, '0');
  await db
    .insertInto('pci_merchants')
    .values({
      merchant_id: merchantId,
      partner_id: m.partner_id,
      mid: m.mid,
      pci_compliant: false,
      achieved_date: null,
      due_date: addDays(String(m.opened_on).slice(0, 10), 90),
      merchant_status: '',
      aba_number: encryptPii(aba),
      aba_last4: aba.slice(-4),
      dda_number: encryptPii(dda),
      dda_last4: dda.slice(-4),
    })
    .onConflict((oc) => oc.column('merchant_id').doNothing())
    .execute();
  await refreshMerchantFees(db, merchantId);
}

/**
 * A demo database seeded before the PCI tables existed (the bench database) gets its PCI data without a reseed,
 * as of the day its data reaches. Returns null when there was nothing to do.
 */
export async function seedPciIfMissing(db: Db, log?: (line: string) => void): Promise<PciSeedReport | null> {
  const state = await db.selectFrom('demo_state').select(['seed', 'caught_up_to']).executeTakeFirst();
  if (!state) return null;
  const existing = await db.selectFrom('pci_merchants').select('mid').limit(1).executeTakeFirst();
  if (existing) return null;
  const report = await db.transaction().execute((trx) =>
    generatePci(trx, {
      seed: state.seed,
      today: new Date(state.caught_up_to).toISOString().slice(0, 10),
      log,
    }),
  );
  await sql`vacuum analyze pci_merchants, pci_billing`.execute(db);
  return report;
}
