import {
  type ExceptionFilter,
  type FeeGroup,
  type FrequencyGroup,
  feesOf,
  filterValues,
  PCI_DEFAULT_FEE_FLAGS,
  type PciConfig,
  type PciDefaultFeeFlag,
  type PciMerchantFacts,
  parseMoney,
  type RevShare,
  toDecimalString,
} from '@paydesk/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connect';

/**
 * What the billing engine (domain/src/pci/billing.ts) needs from the database: the configuration, the rev
 * shares, each merchant's facts; and the cached billing type and fees of every merchant, refreshed after each
 * configuration change.
 */

export async function loadPciConfig(db: Db): Promise<PciConfig> {
  const [defaults, frequency, fees, frequencies] = await Promise.all([
    db.selectFrom('pci_default_fees').selectAll().execute(),
    db.selectFrom('pci_default_frequency').select('frequency').executeTakeFirst(),
    db.selectFrom('pci_fees').selectAll().orderBy('fee_group').orderBy('id').execute(),
    db.selectFrom('pci_frequencies').selectAll().orderBy('frequency_group').orderBy('id').execute(),
  ]);
  const zero = { amount: parseMoney('0'), isoCost: parseMoney('0') };
  const defaultFees = Object.fromEntries(PCI_DEFAULT_FEE_FLAGS.map((f) => [f, zero])) as Record<
    PciDefaultFeeFlag,
    typeof zero
  >;
  for (const d of defaults)
    defaultFees[d.fee_flag] = { amount: parseMoney(d.amount), isoCost: parseMoney(d.iso_cost) };

  const filterOf = (r: {
    filter_id: number;
    filter_operator_id: number;
    filter_value: string;
  }): ExceptionFilter => ({
    filterId: r.filter_id,
    operatorId: r.filter_operator_id,
    values: filterValues(r.filter_value),
  });
  const feeGroups: FeeGroup[] = [];
  for (const r of fees) {
    const last = feeGroups.at(-1) as (FeeGroup & { group: number }) | undefined;
    if (last && last.group === r.fee_group) (last.filters as ExceptionFilter[]).push(filterOf(r));
    else
      feeGroups.push({
        group: r.fee_group,
        flag: r.fee_flag,
        amount: parseMoney(r.amount),
        isoCost: parseMoney(r.iso_cost),
        filters: [filterOf(r)],
      } as FeeGroup & { group: number });
  }
  const frequencyGroups: FrequencyGroup[] = [];
  for (const r of frequencies) {
    const last = frequencyGroups.at(-1) as (FrequencyGroup & { group: number }) | undefined;
    if (last && last.group === r.frequency_group) (last.filters as ExceptionFilter[]).push(filterOf(r));
    else
      frequencyGroups.push({
        group: r.frequency_group,
        frequency: r.frequency,
        filters: [filterOf(r)],
      } as FrequencyGroup & {
        group: number;
      });
  }
  return { defaultFrequency: frequency?.frequency ?? 'MTF', defaultFees, feeGroups, frequencyGroups };
}

export async function loadRevShares(db: Db): Promise<RevShare[]> {
  const { rows } = await sql<RevShare>`select pa.account_name as iso_name, r.rev_share::text as rev_share,
      r.effective_date::text as effective_date
    from pci_rev_shares r join partners pa on pa.id = r.partner_id
    order by pa.account_name, r.effective_date`.execute(db);
  return rows;
}

export interface MerchantRecord extends PciMerchantFacts {
  merchant_id: number;
  partner_id: number;
  dba_name: string;
  merchant_status: '' | 'C';
  aba_number: string | null;
  dda_number: string | null;
}

/**
 * The merchants' facts, by MID; `openOnly`: those open for PCI billing; `merchantId`: that merchant only;
 * `afterMid` and `limit`: the page after that MID (see merchantRecordPages).
 */
export async function merchantRecords(
  db: Db,
  options: { openOnly: boolean; merchantId?: number; afterMid?: string; limit?: number },
): Promise<MerchantRecord[]> {
  const { rows } = await sql<MerchantRecord>`select p.merchant_id, p.partner_id, p.mid, m.dba as dba_name,
      pa.account_name as iso_name, m.group_id, m.profile as merchant_profile, m.mcc, m.state, m.sponsor_bank,
      m.opened_on::text as open_date, p.pci_compliant, p.due_date::text as due_date, p.merchant_status,
      p.aba_number, p.dda_number
    from pci_merchants p join merchants m on m.id = p.merchant_id join partners pa on pa.id = p.partner_id
    where true ${options.openOnly ? sql`and p.merchant_status = ''` : sql``}
      ${options.merchantId === undefined ? sql`` : sql`and p.merchant_id = ${options.merchantId}`}
      ${options.afterMid === undefined ? sql`` : sql`and p.mid > ${options.afterMid}`}
    order by p.mid ${options.limit === undefined ? sql`` : sql`limit ${options.limit}`}`.execute(db);
  return rows;
}

/**
 * Every merchant's facts in MID order, a page at a time: the billing run holds one page of merchants (with their
 * encrypted bank numbers) rather than all of them, so its memory does not grow with the merchants.
 */
export async function* merchantRecordPages(
  db: Db,
  options: { openOnly: boolean },
  pageSize = 5_000,
): AsyncGenerator<MerchantRecord[]> {
  let afterMid: string | undefined;
  for (;;) {
    const page = await merchantRecords(db, {
      ...options,
      limit: pageSize,
      ...(afterMid ? { afterMid } : {}),
    });
    if (page.length === 0) return;
    yield page;
    afterMid = page.at(-1)?.mid;
    if (page.length < pageSize) return;
  }
}

/**
 * Stores each merchant's billing type and fees as the engine gives them under the current configuration (the
 * Merchants table shows, filters and sorts by them). Called after every configuration change and by the seed.
 */
export async function refreshMerchantFees(db: Db, merchantId?: number): Promise<number> {
  const config = await loadPciConfig(db);
  const merchants = await merchantRecords(db, { openOnly: false, merchantId });
  const ids: number[] = [];
  const types: string[] = [];
  const program: string[] = [];
  const nonCompliance: string[] = [];
  for (const m of merchants) {
    const fees = feesOf(m, config);
    ids.push(m.merchant_id);
    types.push(fees.billingType);
    program.push(toDecimalString(fees.program.amount));
    nonCompliance.push(toDecimalString(fees.nonCompliance.amount));
  }
  const chunk = 20_000;
  for (let i = 0; i < ids.length; i += chunk) {
    await sql`update pci_merchants p set billing_type = u.billing_type, pci_fee = u.pci_fee,
        pci_noncomp_fee = u.pci_noncomp_fee
      from unnest(${ids.slice(i, i + chunk)}::int[], ${types.slice(i, i + chunk)}::text[],
        ${program.slice(i, i + chunk)}::numeric[], ${nonCompliance.slice(i, i + chunk)}::numeric[])
        as u(merchant_id, billing_type, pci_fee, pci_noncomp_fee)
      where p.merchant_id = u.merchant_id and (p.billing_type, p.pci_fee, p.pci_noncomp_fee)
        is distinct from (u.billing_type, u.pci_fee, u.pci_noncomp_fee)`.execute(db);
  }
  return ids.length;
}
