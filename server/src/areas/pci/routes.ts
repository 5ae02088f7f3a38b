import { Readable } from 'node:stream';
import {
  filterSourceRequest,
  hasPermission,
  maskAccountNumber,
  maskRoutingNumber,
  monthStart,
  PCI_ACH_FILE,
  PCI_DEFAULT_FEE_FLAGS,
  PCI_EXPORT_FILES,
  PCI_FILTERS,
  PCI_FLAG_DESCRIPTIONS,
  PCI_FLAGS,
  PCI_MERCHANT_STATUS_LABELS,
  PCI_MESSAGES,
  PCI_OPERATORS,
  PCI_VALUE_SEPARATOR,
  type PciFilterDef,
  type PciHistoricColumn,
  type PciMerchantStatus,
  parseMoney,
  pciEndpoints,
  toDecimalString,
  validateFeeExceptions,
  validateFrequencyExceptions,
  validRoutingNumber,
} from '@paydesk/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';
import { keptArrayInParts, keptJson, scopeKey } from '../../platform/answerCache';
import { audit } from '../../platform/audit';
import { badRequest, notFound } from '../../platform/errors';
import { type Deps, route } from '../../platform/http';
import { decryptPii, encryptPii } from '../../platform/pii';
import type { RequestUser } from '../../platform/sessions';
import { sendWorkbook } from '../../platform/spreadsheets';
import { checkRequest, holdRows, queryPage, type TableSource } from '../../platform/tableQuery';
import { tableRoutes } from '../../platform/tableRoutes';
import { billingRunOf, originatorFrom, runPciBilling } from './billingRun';
import { refreshMerchantFees } from './engine';
import {
  billingSource,
  closedMerchantsCount,
  commissionsSource,
  merchantsSource,
  oldMerchantsSource,
} from './tables';

/** The billing month of a request, refusing one that has not started. */
function billingMonth(input: { year: number; month: number }): string {
  const month = `${input.year}-${String(input.month).padStart(2, '0')}-01`;
  if (month > monthStart(new Date())) throw badRequest('That month has not started');
  return month;
}

/** Historic-merchant editors see T/R and DDA in clear (spec §6; docs/security.md). */
const reveals = (user: RequestUser) => hasPermission(user, 'pci_historic_edit');

const clearOrNull = (stored: string | null) => (stored === null ? null : decryptPii(stored));

/** Records that a list showed bank numbers in clear (never the values). */
async function auditReveal(
  db: Db,
  user: RequestUser,
  req: FastifyRequest,
  what: string,
  rows: number | null,
) {
  await audit(db, {
    actor: { id: user.id, email: user.email },
    action: 'pii.reveal',
    subject: rows === null ? what : `${rows} ${what}`,
    ip: req.ip,
    details: { field: 'T/R and DDA', capability: 'pci_historic_edit', rows },
  });
}

const ok = { success: true, message: PCI_MESSAGES.saved };

async function configChanged(db: Db, user: RequestUser, req: FastifyRequest, description: string) {
  await refreshMerchantFees(db);
  await audit(db, {
    actor: { id: user.id, email: user.email },
    action: 'pci.config',
    subject: 'PCI configuration',
    ip: req.ip,
    details: { description },
  });
}

/** The whitelisted filter whose source a filter-source call names, or a 400: nothing else is ever queried. */
function whitelisted(
  match: (request: NonNullable<ReturnType<typeof filterSourceRequest>>) => boolean,
): PciFilterDef {
  const filter = PCI_FILTERS.find((f) => {
    const request = filterSourceRequest(f);
    return request !== null && match(request);
  });
  if (!filter) throw badRequest('Not the source of a PCI filter');
  return filter;
}

/** table.schema.field → the schema-qualified table and the field, from the whitelist's own text. */
function sourceParts(source: string) {
  const [table, schema, field] = source.split('.') as [string, string, string];
  return { table: sql.table(`${schema}.${table}`), field: sql.ref(field) };
}

// ---------------------------------------------------------------- the two tables with bank numbers

function revealingTableRoutes<Id extends string>(
  app: FastifyInstance,
  deps: Deps,
  table: {
    access: 'session' | 'pci_restricted';
    scope: 'iso' | 'staffOnly';
    /** Both tables take no fields of their own. */
    endpoints: typeof pciEndpoints.merchantsTable;
    source: (reveal: boolean) => TableSource<Id>;
    base: RawBuilder<unknown>[];
    what: string;
    file: { name: string; sheet: string };
  },
) {
  route(app, deps, {
    endpoint: table.endpoints.query,
    access: table.access,
    scope: table.scope,
    handler: async ({ input, db, user, req }) => {
      const reveal = reveals(user);
      const page = await queryPage<Id, Record<string, unknown>>(db, table.source(reveal), input, table.base);
      if (reveal && page.rows.length > 0) await auditReveal(db, user, req, table.what, page.rows.length);
      return page;
    },
  });
  route(app, deps, {
    endpoint: table.endpoints.export,
    access: table.access,
    scope: table.scope,
    bulk: true,
    handler: async ({ input, db, user, req, reply, afterCommit }) => {
      const reveal = reveals(user);
      const source = table.source(reveal);
      const request = input;
      checkRequest(source, request, request.columns);
      const columns = request.columns.map((id) => {
        const col = source.def.columns.find((c) => c.id === id);
        return { key: id, header: col?.label ?? id, type: col?.type };
      });
      const rows = await holdRows<Id, Record<string, unknown>>(
        db,
        source,
        request,
        request.columns,
        table.base,
      );
      if (reveal) await auditReveal(db, user, req, `${table.what} (an export of every filtered row)`, null);
      afterCommit(async (connection) => {
        await sendWorkbook(reply, table.file.name, table.file.sheet, columns, (addRows) =>
          rows.forEachChunk(connection, addRows).then(() => undefined),
        );
      });
      return undefined;
    },
  });
}

// ---------------------------------------------------------------- routes

/**
 * PCI compliance (spec document 3 §7; docs/pci.md). Merchants, Billing and Commissions: everyone signed in, ISO-
 * bound users their ISO's rows (row-level security). Old Merchants and the Config tab's reads: pci_restricted;
 * the billing run: pci_ach_billing; fee and billing-type changes: pci_fees; old-merchant changes:
 * pci_historic_edit. The restricted calls are internal staff's (staffOnly).
 */
export function pciRoutes(app: FastifyInstance, deps: Deps) {
  // ------------------------------------------------------------ merchants

  route(app, deps, {
    endpoint: pciEndpoints.getMerchants,
    access: 'session',
    scope: 'iso',
    handler: async ({ db, user, req }) => {
      const reveal = reveals(user);
      const { rows } = await sql<{
        mid: string;
        dba_name: string;
        iso_name: string;
        merchant_profile: string;
        open_date: string;
        pci_compliant: boolean;
        achieved_date: string | null;
        due_date: string | null;
        billing_type: 'MTF' | 'ANF';
        pci_fee: string;
        pci_noncomp_fee: string;
        aba_number: string | null;
        aba_last4: string | null;
        dda_number: string | null;
        dda_last4: string | null;
      }>`select p.mid, m.dba as dba_name, pa.account_name as iso_name, m.profile as merchant_profile,
          m.opened_on::text as open_date, p.pci_compliant, p.achieved_date::text as achieved_date,
          p.due_date::text as due_date, p.billing_type, p.pci_fee::text as pci_fee,
          p.pci_noncomp_fee::text as pci_noncomp_fee,
          ${reveal ? sql`p.aba_number, p.dda_number` : sql`null as aba_number, null as dda_number`},
          p.aba_last4, p.dda_last4
        from pci_merchants p join merchants m on m.id = p.merchant_id join partners pa on pa.id = p.partner_id
        where p.merchant_status = '' order by p.mid`.execute(db);
      if (reveal && rows.length > 0) await auditReveal(db, user, req, 'PCI merchants', rows.length);
      return rows.map(({ aba_number, aba_last4, dda_number, dda_last4, ...r }) => ({
        ...r,
        tr: reveal ? clearOrNull(aba_number) : aba_last4 && maskRoutingNumber(`00000${aba_last4}`),
        dda: reveal ? clearOrNull(dda_number) : dda_last4 && maskAccountNumber(`0000${dda_last4}`),
      }));
    },
  });

  revealingTableRoutes(app, deps, {
    access: 'session',
    scope: 'iso',
    endpoints: pciEndpoints.merchantsTable,
    source: merchantsSource,
    base: [],
    what: 'PCI merchants',
    file: PCI_EXPORT_FILES.merchants,
  });

  // ------------------------------------------------------------ billing and commissions

  // A month is every open merchant (86,000 rows at the large scale, 146,666 at xl): PostgreSQL writes the JSON (see
  // JsonText), kept per ISO scope and month until a billing row, merchant or partner changes
  // (platform/answerCache.ts; at xl the month is 33 MB of JSON, kept compressed). The subquery's column list is
  // what leaves the server, in the spec's order.
  route(app, deps, {
    endpoint: pciEndpoints.getBilling,
    access: 'session',
    scope: 'iso',
    handler: async ({ db, input, user }) => {
      const month = billingMonth(input);
      return keptJson(deps.db, db, 'pci_billing', scopeKey(user, 'billing', month), async () => {
        const { rows } = await sql<{
          j: string;
        }>`select coalesce(json_agg(r order by r.mid), '[]')::text as j from (
            select b.mid, m.dba as dba_name, pa.account_name as iso_name, m.profile as merchant_profile,
              m.opened_on::text as open_date, b.billing_flag, b.created_date::text as created_date,
              b.processed_date::text as processed_date, b.amount::text as amount
            from pci_billing b join merchants m on m.id = b.merchant_id join partners pa on pa.id = b.partner_id
            where b.month = ${month}::date) r`.execute(db);
        return rows[0]?.j ?? '[]';
      });
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.getCommissions,
    access: 'session',
    scope: 'iso',
    handler: async ({ db, input, user }) => {
      const month = billingMonth(input);
      return keptJson(deps.db, db, 'pci_billing', scopeKey(user, 'commissions', month), async () => {
        const { rows } = await sql<{
          j: string;
        }>`select coalesce(json_agg(r order by r.iso_name, r.mid), '[]')::text as j from (
            select b.mid, m.dba as dba_name, pa.account_name as iso_name, m.profile as merchant_profile,
              b.billing_flag, b.created_date::text as date_billed, b.iso_rev_share::text as iso_rev_share,
              b.iso_cost::text as iso_cost, b.amount::text as amount_billed, b.amount_due::text as amount_due
            from pci_billing b join merchants m on m.id = b.merchant_id join partners pa on pa.id = b.partner_id
            where b.month = ${month}::date and b.iso_rev_share is not null) r`.execute(db);
        return rows[0]?.j ?? '[]';
      });
    },
  });

  tableRoutes(app, deps, {
    access: 'session',
    scope: 'iso',
    endpoints: pciEndpoints.billingTable,
    source: () => billingSource,
    base: (extra) => [sql`b.month = ${billingMonth(extra)}::date`],
    file: () => PCI_EXPORT_FILES.billing,
  });

  tableRoutes(app, deps, {
    access: 'session',
    scope: 'iso',
    endpoints: pciEndpoints.commissionsTable,
    source: () => commissionsSource,
    base: (extra) => [sql`b.month = ${billingMonth(extra)}::date`, sql`b.iso_rev_share is not null`],
    file: () => PCI_EXPORT_FILES.commissions,
  });

  route(app, deps, {
    endpoint: pciEndpoints.getAchBilling,
    access: 'pci_ach_billing',
    scope: 'staffOnly',
    bulk: true,
    handler: async ({ db, input, user, req, reply, afterCommit }) => {
      const month = billingMonth(input);
      const outcome = await runPciBilling(db, {
        month,
        user: { id: user.id, email: user.email },
        ip: req.ip,
        originator: originatorFrom(deps.config),
      });
      // Sent once the billing rows are committed: a file is never answered for a run that did not happen.
      afterCommit(async () => {
        const chunk = 64 * 1024;
        const file = outcome.file;
        reply
          .header('content-type', 'text/plain; charset=us-ascii')
          .header('content-disposition', `attachment; filename="${PCI_ACH_FILE}"`)
          .header('cache-control', 'no-store')
          // What the screen reports at once; the run's full report is /api/app/pci/billingRun.
          .header('x-pci-run', outcome.created ? 'created' : 'existing')
          .header('x-pci-entries', String(outcome.run.entries))
          .header('x-pci-skipped', String(outcome.run.skipped.length))
          .send(
            Readable.from(
              (function* () {
                for (let i = 0; i < file.length; i += chunk) yield file.slice(i, i + chunk);
              })(),
            ),
          );
      });
      return undefined;
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.billingRun,
    access: 'pci_ach_billing',
    scope: 'staffOnly',
    handler: async ({ db, input }) => ({ run: await billingRunOf(db, billingMonth(input)) }),
  });

  // ------------------------------------------------------------ old merchants

  route(app, deps, {
    endpoint: pciEndpoints.getHistoricMerchants,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async ({ db, user, req }) => {
      const reveal = reveals(user);
      if (reveal) {
        // Every reveal is audited, kept answer or not, with the number of merchants it shows (counted in the same
        // transaction, so the same snapshot as the list).
        const shown = (await closedMerchantsCount.execute(db)).rows[0]?.n ?? 0;
        if (shown > 0) await auditReveal(db, user, req, 'old merchants', shown);
      }
      // Kept in parts, one per MID prefix, each until a closed merchant's PCI row of that prefix or its partner's
      // name is written (migration 2026_12_11_0020), in clear or masked as this user reads it: only in this
      // server's memory, which holds the key that decrypts the numbers anyway. The parts are the prefixes that
      // have a version, in the list's order (MIDs by their characters, as the list is sorted).
      const { rows: prefixes } = await sql<{ part: string }>`select part from answer_part_versions
        where name = 'pci_historic' order by part collate "C"`.execute(db);
      const parts = prefixes.map(({ part }) => ({ key: part, first: part, last: part }));
      return keptArrayInParts(
        deps.db,
        db,
        'pci_historic',
        scopeKey(user, reveal ? 'clear' : 'masked'),
        'all',
        parts,
        async (stale) => {
          const rows = await historicMerchants(db, reveal, { prefixes: stale.map((p) => p.key) });
          const byPrefix = new Map<string, typeof rows>();
          for (const row of rows) {
            const prefix = row.mid.slice(0, HISTORIC_PREFIX);
            const list = byPrefix.get(prefix);
            if (list) list.push(row);
            else byPrefix.set(prefix, [row]);
          }
          return new Map(
            [...byPrefix].map(([prefix, list]) => [
              prefix,
              JSON.stringify(pciEndpoints.getHistoricMerchants.output.parse(list)).slice(1, -1),
            ]),
          );
        },
      );
    },
  });

  revealingTableRoutes(app, deps, {
    access: 'pci_restricted',
    scope: 'staffOnly',
    endpoints: pciEndpoints.oldMerchantsTable,
    source: oldMerchantsSource,
    // The source holds only closed merchants' rows (tables.ts).
    base: [],
    what: 'old merchants',
    file: PCI_EXPORT_FILES.oldMerchants,
  });

  route(app, deps, {
    endpoint: pciEndpoints.updateHistoricMerchantStatus,
    access: 'pci_historic_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user, req }) => {
      const [before] = await historicMerchants(db, true, { mid: input.mid });
      if (!before) throw notFound(`No old merchant with MID ${input.mid}`);
      const change = historicChange(input.column, input.value.trim());
      const result = await db
        .updateTable('pci_merchants')
        .set({ ...change.set, updated_at: new Date(), updated_by: user.email })
        .where('mid', '=', input.mid)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw notFound(`No old merchant with MID ${input.mid}`);
      const description =
        input.column === 'merchant_status'
          ? `Changed the PCI status of old merchant ${input.mid} from ${PCI_MERCHANT_STATUS_LABELS[before.merchant_status]} to ${PCI_MERCHANT_STATUS_LABELS[change.value as PciMerchantStatus]}`
          : `Changed the ${input.column === 'aba_number' ? 'T/R' : 'DDA'} of old merchant ${input.mid}`;
      await audit(db, {
        actor: { id: user.id, email: user.email },
        action: 'pci.merchant',
        subject: input.mid,
        ip: req.ip,
        details: { column: input.column, description },
      });
      const [row] = await historicMerchants(db, true, { mid: input.mid });
      if (!row) throw notFound(`No old merchant with MID ${input.mid}`);
      return { success: true, message: PCI_MESSAGES.saved, row };
    },
  });

  // ------------------------------------------------------------ configuration: reads

  route(app, deps, {
    endpoint: pciEndpoints.getFlags,
    access: 'session',
    scope: 'iso',
    handler: async () => PCI_FLAGS.map((flag) => ({ flag, description: PCI_FLAG_DESCRIPTIONS[flag] })),
  });

  route(app, deps, {
    endpoint: pciEndpoints.getPartners,
    access: 'session',
    scope: 'iso',
    handler: async ({ db }) =>
      db.selectFrom('partners').select('account_name as iso_name').orderBy('account_name').execute(),
  });

  route(app, deps, {
    endpoint: pciEndpoints.getDefaultFees,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async ({ db }) => {
      const rows = await db.selectFrom('pci_default_fees').selectAll().execute();
      return PCI_DEFAULT_FEE_FLAGS.map((flag) => {
        const row = rows.find((r) => r.fee_flag === flag);
        return { fee_flag: flag, amount: money(row?.amount ?? '0'), iso_cost: money(row?.iso_cost ?? '0') };
      });
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.getFees,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async ({ db }) => {
      const rows = await db.selectFrom('pci_fees').selectAll().orderBy('fee_group').orderBy('id').execute();
      return rows.map((r) => ({ ...r, amount: money(r.amount), iso_cost: money(r.iso_cost) }));
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.getFilters,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async () =>
      PCI_FILTERS.map(({ id, alias, field_type, source_value, source_display }) => ({
        id,
        alias,
        field_type,
        source_value,
        source_display,
      })),
  });

  route(app, deps, {
    endpoint: pciEndpoints.getFilterOperators,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async () => PCI_OPERATORS.map((o) => ({ ...o })),
  });

  route(app, deps, {
    endpoint: pciEndpoints.getDefaultFrequencies,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async ({ db }) => db.selectFrom('pci_default_frequency').select('frequency').execute(),
  });

  route(app, deps, {
    endpoint: pciEndpoints.getFrequencies,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async ({ db }) =>
      db.selectFrom('pci_frequencies').selectAll().orderBy('frequency_group').orderBy('id').execute(),
  });

  route(app, deps, {
    endpoint: pciEndpoints.getPciRevShares,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async ({ db }) => {
      const { rows } = await sql<{ iso_name: string; rev_share: string; effective_date: string }>`select
          pa.account_name as iso_name, r.rev_share::text as rev_share, r.effective_date::text as effective_date
        from pci_rev_shares r join partners pa on pa.id = r.partner_id
        order by pa.account_name, r.effective_date desc`.execute(db);
      return rows.map((r) => ({ ...r, rev_share: money(r.rev_share) }));
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.getFilterSourceDisplays,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async ({ db, input }) => {
      const filter = whitelisted(
        (r) =>
          r.displays.table === input.table &&
          r.displays.field_value === input.field_value &&
          r.displays.field_display === input.field_display,
      );
      const value = sourceParts(filter.source_value as string);
      const display = sourceParts(filter.source_display as string);
      const { rows } = await sql<{
        value: string;
        display: string;
      }>`select distinct ${value.field}::text as value,
          ${display.field}::text as display
        from ${value.table} where ${value.field} is not null order by 2, 1 limit 5000`.execute(db);
      return rows;
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.getFilterSourceValues,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async ({ db, input }) => {
      const filter = whitelisted((r) => r.values.table === input.table && r.values.field === input.field);
      const value = sourceParts(filter.source_value as string);
      const { rows } = await sql<{ value: string }>`select distinct ${value.field}::text as value
        from ${value.table} where ${value.field} is not null order by 1 limit 5000`.execute(db);
      return rows;
    },
  });

  // ------------------------------------------------------------ configuration: changes

  route(app, deps, {
    endpoint: pciEndpoints.updateDefaultFee,
    access: 'pci_fees',
    scope: 'staffOnly',
    handler: async ({ db, input, user, req }) => {
      await db
        .insertInto('pci_default_fees')
        .values({ fee_flag: input.flag, amount: input.amount, iso_cost: input.iso_cost })
        .onConflict((oc) =>
          oc.column('fee_flag').doUpdateSet({ amount: input.amount, iso_cost: input.iso_cost }),
        )
        .execute();
      await configChanged(
        db,
        user,
        req,
        `Set the default ${input.flag} fee to $${input.amount.toFixed(2)} (ISO cost $${input.iso_cost.toFixed(2)})`,
      );
      return ok;
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.insertFee,
    access: 'pci_fees',
    scope: 'staffOnly',
    handler: async ({ db, input, user, req }) => {
      const checked = validateFeeExceptions(input);
      if (!checked.ok) throw badRequest(checked.message);
      await db.deleteFrom('pci_fees').execute();
      const rows = checked.groups.flatMap((g, i) =>
        g.filters.map((f) => ({
          fee_flag: g.flag,
          amount: toDecimalString(g.amount),
          iso_cost: toDecimalString(g.isoCost),
          filter_id: f.filterId,
          filter_value: f.values.join(PCI_VALUE_SEPARATOR),
          filter_operator_id: f.operatorId,
          fee_group: i + 1,
        })),
      );
      if (rows.length > 0) await db.insertInto('pci_fees').values(rows).execute();
      await configChanged(db, user, req, `Saved ${checked.groups.length} PCI fee exceptions`);
      return ok;
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.updateDefaultFrequency,
    access: 'pci_fees',
    scope: 'staffOnly',
    handler: async ({ db, input, user, req }) => {
      await db.updateTable('pci_default_frequency').set({ frequency: input.flag }).execute();
      await configChanged(db, user, req, `Set the default PCI billing type to ${input.flag}`);
      return ok;
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.insertFrequency,
    access: 'pci_fees',
    scope: 'staffOnly',
    handler: async ({ db, input, user, req }) => {
      const checked = validateFrequencyExceptions(input);
      if (!checked.ok) throw badRequest(checked.message);
      await db.deleteFrom('pci_frequencies').execute();
      const rows = checked.groups.flatMap((g, i) =>
        g.filters.map((f) => ({
          frequency: g.frequency,
          filter_id: f.filterId,
          filter_value: f.values.join(PCI_VALUE_SEPARATOR),
          filter_operator_id: f.operatorId,
          frequency_group: i + 1,
        })),
      );
      if (rows.length > 0) await db.insertInto('pci_frequencies').values(rows).execute();
      await configChanged(db, user, req, `Saved ${checked.groups.length} PCI billing-type exceptions`);
      return ok;
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.addRevShare,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async ({ db, input, user, req }) => {
      const partner = await db
        .selectFrom('partners')
        .select('id')
        .where('account_name', '=', input.iso_name)
        .executeTakeFirst();
      if (!partner) throw badRequest(`No ISO named "${input.iso_name}"`);
      const share = input.rev_share.toFixed(2);
      await db
        .insertInto('pci_rev_shares')
        .values({ partner_id: partner.id, rev_share: share, effective_date: input.effective_date })
        .onConflict((oc) => oc.columns(['partner_id', 'effective_date']).doUpdateSet({ rev_share: share }))
        .execute();
      await audit(db, {
        actor: { id: user.id, email: user.email },
        action: 'pci.config',
        subject: input.iso_name,
        ip: req.ip,
        details: {
          description: `Set the PCI rev share of ${input.iso_name} to ${share}% from ${input.effective_date}`,
        },
      });
      return ok;
    },
  });

  route(app, deps, {
    endpoint: pciEndpoints.deleteRevShare,
    access: 'pci_restricted',
    scope: 'staffOnly',
    handler: async ({ db, input, user, req }) => {
      const { rows } = await sql<{ id: number }>`delete from pci_rev_shares r using partners pa
        where pa.id = r.partner_id and pa.account_name = ${input.iso_name}
          ${input.effective_date ? sql`and r.effective_date = ${input.effective_date}::date` : sql``}
        returning r.id`.execute(db);
      if (rows.length === 0) throw notFound(`No PCI rev share of "${input.iso_name}"`);
      await audit(db, {
        actor: { id: user.id, email: user.email },
        action: 'pci.config',
        subject: input.iso_name,
        ip: req.ip,
        details: {
          description: `Deleted ${input.effective_date ? `the PCI rev share of ${input.iso_name} from ${input.effective_date}` : `every PCI rev share of ${input.iso_name}`}`,
        },
      });
      return { success: true, message: 'Deleted' };
    },
  });
}

/** A stored numeric as the API's exact decimal ("35.00"). */
const money = (v: string | number) => toDecimalString(parseMoney(String(v)));

/** The MID prefix the Old Merchants list is kept in parts by (migration 2026_12_11_0020). */
const HISTORIC_PREFIX = 8;

/**
 * The closed merchants' PCI rows by MID (the older client's whole list, one MID, or the MIDs of some prefixes of
 * HISTORIC_PREFIX characters), with the DBA and closed status each row keeps from its merchant (2026_12_01_0010,
 * 2026_12_09_0040): found by the closed rows' partial indexes, with no merchant read.
 */
async function historicMerchants(db: Db, reveal: boolean, which: { mid?: string; prefixes?: string[] } = {}) {
  const { rows } = await sql<{
    mid: string;
    dba_name: string;
    iso_name: string;
    merchant_status: PciMerchantStatus;
    aba_number: string | null;
    aba_last4: string | null;
    dda_number: string | null;
    dda_last4: string | null;
  }>`select p.mid, p.dba as dba_name, pa.account_name as iso_name, p.merchant_status, p.aba_number, p.aba_last4,
      p.dda_number, p.dda_last4
    from pci_merchants p join partners pa on pa.id = p.partner_id
    where p.merchant_closed ${which.mid === undefined ? sql`` : sql`and p.mid = ${which.mid}`}
      ${
        which.prefixes === undefined
          ? sql``
          : sql`and left(p.mid, ${sql.lit(HISTORIC_PREFIX)}) = any(${sql.val(which.prefixes)}::text[])`
      }
    order by p.mid collate "C"`.execute(db);
  return rows.map((r) => ({
    mid: r.mid,
    dba_name: r.dba_name,
    iso_name: r.iso_name,
    merchant_status: r.merchant_status,
    aba_number: reveal ? clearOrNull(r.aba_number) : r.aba_last4 && maskRoutingNumber(`00000${r.aba_last4}`),
    dda_number: reveal ? clearOrNull(r.dda_number) : r.dda_last4 && maskAccountNumber(`0000${r.dda_last4}`),
  }));
}

/** The stored change of one old-merchant column, checked; bank numbers encrypted with their last four kept. */
function historicChange(column: PciHistoricColumn, value: string) {
  if (column === 'merchant_status') {
    if (value !== '' && value !== 'C') throw badRequest("The status is '' (Open) or 'C' (Closed)");
    return { set: { merchant_status: value as PciMerchantStatus }, value };
  }
  if (column === 'aba_number') {
    if (!validRoutingNumber(value))
      throw badRequest('A routing number (T/R) is 9 digits with a valid check digit');
    return { set: { aba_number: encryptPii(value), aba_last4: value.slice(-4) }, value };
  }
  if (!/^\d{4,17}$/.test(value)) throw badRequest('A DDA is 4 to 17 digits');
  return { set: { dda_number: encryptPii(value), dda_last4: value.slice(-4) }, value };
}
