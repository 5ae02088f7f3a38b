import {
  addMonths,
  amountDue,
  billFor,
  formatMoney,
  isBusinessDay,
  MONTH_NAMES,
  type Money,
  monthStart,
  type NachaOriginator,
  NachaWriter,
  type PciBillingRun,
  type PciConfig,
  type PciSkippedMerchant,
  type RevShare,
  revShareOn,
  toDecimalString,
  validAccountNumber,
  validRoutingNumber,
} from '@paydesk/domain';
import { sql } from 'kysely';
import type { Config } from '../../config';
import type { Db } from '../../db/connect';
import { audit } from '../../platform/audit';
import { badRequest } from '../../platform/errors';
import { decryptPii } from '../../platform/pii';
import { loadPciConfig, loadRevShares, type MerchantRecord, merchantRecordPages } from './engine';

/**
 * The month's billing run (spec §4; docs/pci.md): bills every merchant open for PCI billing what the engine
 * says, writes the billing rows (with the ISO's rev share and amount due as of the billing date) and one NACHA
 * file of PPD debits, and keeps the file. A month is run once: a second run answers the kept file and bills
 * nobody again (the run's month is unique, the billing rows are unique per merchant and month, and runs of the
 * same month wait for each other).
 */

export function originatorFrom(config: Config): NachaOriginator {
  return {
    odfiRouting: config.PCI_ACH_ODFI_ROUTING,
    odfiName: config.PCI_ACH_ODFI_NAME,
    companyId: config.PCI_ACH_COMPANY_ID,
    companyName: config.PCI_ACH_COMPANY_NAME,
    immediateOrigin: config.PCI_ACH_COMPANY_ID,
    immediateOriginName: config.PCI_ACH_COMPANY_NAME,
    entryDescription: config.PCI_ACH_ENTRY_DESCRIPTION,
  };
}

const addDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The first business day after `day`: when the debits settle. */
export async function nextBusinessDay(db: Db, day: string): Promise<string> {
  const rows = await db.selectFrom('holidays').select('day').where('day', '>', day).execute();
  const holidays = new Set(rows.map((r) => String(r.day).slice(0, 10)));
  let next = addDay(day);
  while (!isBusinessDay(next, holidays)) next = addDay(next);
  return next;
}

/** Why a merchant due a fee cannot be debited, or null when its bank details are good. */
function bankProblem(
  aba: string | null,
  dda: string | null,
): { problem: string } | { routing: string; account: string } {
  let routing: string;
  let account: string;
  try {
    routing = aba === null ? '' : decryptPii(aba);
    account = dda === null ? '' : decryptPii(dda);
  } catch {
    return { problem: 'The stored bank details cannot be read' };
  }
  if (routing === '') return { problem: 'No routing number (T/R)' };
  if (!validRoutingNumber(routing))
    return { problem: 'Bad routing number (T/R): the check digit does not match' };
  if (account === '') return { problem: 'No DDA' };
  if (!validAccountNumber(account)) return { problem: 'Bad DDA: 4 to 17 digits expected' };
  return { routing, account };
}

export interface RunOutcome {
  file: string;
  run: PciBillingRun;
  /** False when the month had already been run and its kept file is answered. */
  created: boolean;
}

async function storedRun(db: Db, month: string): Promise<{ file: string; run: PciBillingRun } | null> {
  const row = await db
    .selectFrom('pci_billing_runs')
    .selectAll()
    .where('month', '=', month)
    .executeTakeFirst();
  if (!row) return null;
  return {
    file: row.file,
    run: {
      year: Number(month.slice(0, 4)),
      month: Number(month.slice(5, 7)),
      created_at: new Date(row.created_at).toISOString(),
      created_by: row.created_by,
      entries: row.entries,
      total_debit: String(row.total_debit),
      skipped: row.skipped as PciSkippedMerchant[],
    },
  };
}

export async function billingRunOf(db: Db, month: string): Promise<PciBillingRun | null> {
  return (await storedRun(db, month))?.run ?? null;
}

const monthWords = (month: string) => `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

export async function runPciBilling(
  db: Db,
  options: {
    /** YYYY-MM-01 */
    month: string;
    user: { id: number; email: string };
    ip: string | null;
    originator: NachaOriginator;
    now?: Date;
  },
): Promise<RunOutcome> {
  const { month } = options;
  // Two runs of the same month wait for each other; the second then finds the first's file.
  await sql`select pg_advisory_xact_lock(hashtext('pci_billing_run'), ${Number(month.slice(0, 4)) * 100 + Number(month.slice(5, 7))})`.execute(
    db,
  );
  const existing = await storedRun(db, month);
  if (existing) {
    await audit(db, {
      actor: options.user,
      action: 'pci.billing_run',
      subject: monthWords(month),
      ip: options.ip,
      details: {
        month,
        again: true,
        description: `Downloaded the PCI billing file of ${monthWords(month)} again (run by ${existing.run.created_by}; nobody billed twice)`,
      },
    });
    return { ...existing, created: false };
  }

  const now = options.now ?? new Date();
  // A month long past is never billed now: its file would debit today's merchants for fees of then.
  if (month < addMonths(monthStart(now), -1))
    throw badRequest(
      'Only the current or the previous month can be billed; earlier months answer the file of their run',
    );
  const today = now.toISOString().slice(0, 10);
  const [config, shares] = await Promise.all([loadPciConfig(db), loadRevShares(db)]);
  const merchants = merchantRecordPages(db, { openOnly: true });
  const { file, entries, total, skipped, createdAt } = await writeRun(db, {
    month,
    createdAt: now,
    effectiveDate: await nextBusinessDay(db, today),
    createdBy: options.user.email,
    merchants,
    config,
    shares,
    originator: options.originator,
  });

  await audit(db, {
    actor: options.user,
    action: 'pci.billing_run',
    subject: monthWords(month),
    ip: options.ip,
    details: {
      month,
      entries,
      total: toDecimalString(total),
      skipped: skipped.length,
      description: `Ran the PCI billing of ${monthWords(month)}: ${entries} debits, $${formatMoney(total)}; ${skipped.length} merchants left out for bad bank details`,
    },
  });
  return {
    file,
    created: true,
    run: {
      year: Number(month.slice(0, 4)),
      month: Number(month.slice(5, 7)),
      created_at: createdAt,
      created_by: options.user.email,
      entries,
      total_debit: toDecimalString(total),
      skipped,
    },
  };
}

/**
 * Bills `merchants` for the month and keeps the run: the billing rows (created on the run's day, processed on
 * the effective date, with the rev share in effect on the run's day) and the NACHA file. Merchants whose bank
 * details are missing or bad are left out of both and listed. The seed writes past months through it too.
 *
 * A page of merchants at a time: its debits are added to the file, then its billing rows are written while the
 * next page is read and billed, so what the run holds is two pages and the file's text (94 bytes a debit), not
 * every merchant's bill, row and entry at once. The run's row is written first (the billing rows refer to it) and
 * completed with the file, the count and the total at the end, in the same transaction.
 */
export async function writeRun(
  db: Db,
  options: {
    month: string;
    createdAt: Date;
    effectiveDate: string;
    createdBy: string;
    /** The merchants, all at once (the seed) or a page at a time (the run). */
    merchants: readonly MerchantRecord[] | AsyncIterable<readonly MerchantRecord[]>;
    config: PciConfig;
    shares: readonly RevShare[];
    originator: NachaOriginator;
  },
) {
  const { month, config, shares } = options;
  const today = options.createdAt.toISOString().slice(0, 10);
  const effectiveDate = options.effectiveDate;
  const now = options.createdAt;
  const merchants = options.merchants;
  const monthName = MONTH_NAMES[Number(month.slice(5, 7)) - 1] ?? '';
  const nacha = new NachaWriter({
    originator: options.originator,
    createdAt: now,
    effectiveDate,
    descriptiveDate: `${monthName.slice(0, 3)} ${month.slice(2, 4)}`,
  });
  // The file's text, a flat string per page: a record is built of many small strings, and 146,666 of them kept
  // as they were built held about 100 MB at the xl scale; joined once a page, they hold the file's 94 bytes each.
  const text: string[] = [];
  let lines: string[] = [];
  const record = (line: string) => lines.push(line, '\r\n');
  const flush = () => {
    text.push(lines.join(''));
    lines = [];
  };
  nacha.header().forEach(record);
  flush();
  const skipped: PciSkippedMerchant[] = [];
  const run = await db
    .insertInto('pci_billing_runs')
    .values({
      month,
      created_at: now,
      created_by: options.createdBy,
      entries: 0,
      total_debit: '0',
      skipped: '[]',
      file: '',
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();

  // The rev share in effect on the run's day, looked up once per ISO (a scan of every share for each merchant took
  // 4 s at the xl scale).
  const shareOf = new Map<string, RevShare | null>();
  const shareFor = (iso: string) => {
    let share = shareOf.get(iso);
    if (share === undefined) {
      share = revShareOn(shares, iso, today);
      shareOf.set(iso, share);
    }
    return share;
  };

  // The pages: a page at a time from the run, or every merchant as one page from the seed.
  const iterator: AsyncIterator<readonly MerchantRecord[]> | Iterator<readonly MerchantRecord[]> =
    Symbol.asyncIterator in merchants ? merchants[Symbol.asyncIterator]() : [merchants][Symbol.iterator]();
  // While PostgreSQL writes one page's billing rows, the next page is read and billed here (decrypting its bank
  // details is most of the run's own work): the two overlap instead of waiting for each other. One page's
  // insert is in flight at a time; it is awaited before the next is sent, so a failure stops the run there.
  let writing: Promise<unknown> = Promise.resolve();
  // A read or insert still in flight when the run stops (another one failed) is not an unhandled rejection.
  const quiet = <T>(p: T): T => {
    Promise.resolve(p).catch(() => {});
    return p;
  };
  let next = quiet(iterator.next());
  for (;;) {
    const step = await next;
    if (step.done) break;
    next = quiet(iterator.next());
    const page = step.value;
    const rows: BillingRows = {
      merchant: [],
      partner: [],
      mid: [],
      flag: [],
      amount: [],
      isoCost: [],
      revShare: [],
      due: [],
    };
    for (const m of page) {
      const bill = billFor(m, config, month);
      if (!bill) continue;
      const bank = bankProblem(m.aba_number, m.dda_number);
      if ('problem' in bank) {
        skipped.push({ mid: m.mid, dba_name: m.dba_name, reason: bank.problem });
        continue;
      }
      record(
        nacha.entry({
          routing: bank.routing,
          account: bank.account,
          amount: bill.amount,
          id: m.mid,
          name: m.dba_name,
        }),
      );
      const share = shareFor(m.iso_name);
      rows.merchant.push(m.merchant_id);
      rows.partner.push(m.partner_id);
      rows.mid.push(m.mid);
      rows.flag.push(bill.flag);
      rows.amount.push(toDecimalString(bill.amount));
      rows.isoCost.push(toDecimalString(bill.isoCost));
      rows.revShare.push(share?.rev_share ?? null);
      rows.due.push(share ? toDecimalString(amountDue(bill.amount, share.rev_share, bill.isoCost)) : null);
    }
    flush();
    await writing;
    writing = quiet(insertBilling(db, rows, { month, runId: run.id, today, effectiveDate }));
  }
  await writing;

  nacha.trailer().forEach(record);
  flush();
  const file = text.join('');
  const total: Money = nacha.total;
  await db
    .updateTable('pci_billing_runs')
    .set({
      entries: nacha.entries,
      total_debit: toDecimalString(total),
      skipped: JSON.stringify(skipped),
      file,
    })
    .where('id', '=', run.id)
    .execute();

  return {
    file,
    entries: nacha.entries,
    total,
    skipped,
    createdAt: new Date(run.created_at).toISOString(),
  };
}

interface BillingRows {
  merchant: number[];
  partner: number[];
  mid: string[];
  flag: string[];
  amount: string[];
  isoCost: string[];
  revShare: (string | null)[];
  due: (string | null)[];
}

/** A page's billing rows, 10,000 to a statement at most. */
async function insertBilling(
  db: Db,
  rows: BillingRows,
  run: { month: string; runId: number; today: string; effectiveDate: string },
): Promise<void> {
  const chunk = 10_000;
  for (let i = 0; i < rows.merchant.length; i += chunk) {
    const part = <T>(a: T[]) => a.slice(i, i + chunk);
    await sql`insert into pci_billing (month, run_id, merchant_id, partner_id, mid, billing_flag, amount, iso_cost,
        iso_rev_share, amount_due, created_date, processed_date)
      select ${run.month}::date, ${run.runId}, u.merchant_id, u.partner_id, u.mid, u.flag, u.amount, u.iso_cost,
        u.rev_share, u.due, ${run.today}::date, ${run.effectiveDate}::date
      from unnest(${part(rows.merchant)}::int[], ${part(rows.partner)}::int[], ${part(rows.mid)}::text[],
        ${part(rows.flag)}::text[], ${part(rows.amount)}::numeric[], ${part(rows.isoCost)}::numeric[],
        ${part(rows.revShare)}::numeric[], ${part(rows.due)}::numeric[])
        as u(merchant_id, partner_id, mid, flag, amount, iso_cost, rev_share, due)`.execute(db);
  }
}
