import {
  addMonths,
  monthStart,
  UPLOAD_TYPES,
  type UploadType,
  uploadEndpoints,
  uploadTypes,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { refreshDerived } from '../../db/derived';
import { holdCursor } from '../../platform/heldCursor';
import { type Deps, route } from '../../platform/http';
import { applyImport, type ImportSteps, prepareImport, rejectRows } from '../../platform/imports';
import { sendWorkbook } from '../../platform/spreadsheets';
import { checkKnownMids, residualImport } from '../reports/imports';

/**
 * Upload Data (spec document 2 §2.9, §7): reference data in and out as spreadsheets. Only admin,
 * finance_admin and sales_admin (permission upload_data), enforced here.
 */
const IMPORTS: Record<UploadType, () => ImportSteps> = {
  adjustments: () => ({ finish: applyAdjustments }),
  schedulea: () => ({ finish: applyScheduleA }),
  // Applied batch by batch while the file is still read.
  residual_tsys: () => residualImport('TSYS'),
  residual_pps: () => residualImport('PPS'),
};

async function applyAdjustments(db: Db) {
  await checkKnownMids(db);
  await sql`delete from adjustments where month in (select distinct c_yearmonth from import_rows)`.execute(
    db,
  );
  await sql`
      insert into adjustments (partner_id, merchant_id, month, mid, category, description, amount)
      select m.partner_id, m.id, r.c_yearmonth, r.c_mid, r.c_category, r.c_description, r.c_amount
      from import_rows r join merchants m on m.mid = r.c_mid`.execute(db);
  await refreshDerived(db, { table: 'adjustments' });
}

async function applyScheduleA(db: Db) {
  await rejectRows(
    db,
    'select r.row_no, r.c_iso from import_rows r left join partners p on lower(p.account_name) = lower(r.c_iso) where p.id is null',
    (r) => `Unknown ISO ${r.c_iso}`,
    'ISO',
  );
  await sql`
      delete from schedule_a s using (select distinct p.id, r.c_effectivedate from import_rows r
        join partners p on lower(p.account_name) = lower(r.c_iso)) f(partner_id, effective_date)
      where s.partner_id = f.partner_id and s.effective_date = f.effective_date`.execute(db);
  await sql`
      insert into schedule_a (partner_id, item, category, rate_bps, per_item, effective_date)
      select p.id, r.c_item, r.c_category, r.c_ratebps, r.c_peritem, r.c_effectivedate
      from import_rows r join partners p on lower(p.account_name) = lower(r.c_iso)`.execute(db);
}

/** The rows of an upload type in its file layout (so an export imports back as it is). */
function exportQuery(db: Db, type: UploadType, month: string) {
  switch (type) {
    case 'adjustments':
      return sql<Record<string, unknown>>`
        select to_char(a.month, 'YYYY-MM') as "YearMonth", a.mid as "MID", a.category as "Category",
               a.description as "Description", a.amount as "Amount"
        from adjustments a where a.month = ${month}::date order by a.mid, a.id`.compile(db);
    case 'schedulea':
      return sql<Record<string, unknown>>`
        select p.account_name as "ISO", s.item as "Item", s.category as "Category", s.rate_bps as "RateBps",
               s.per_item as "PerItem", s.effective_date as "EffectiveDate"
        from schedule_a s join partners p on p.id = s.partner_id order by p.account_name, s.effective_date, s.id`.compile(
        db,
      );
    case 'residual_tsys':
    case 'residual_pps':
      return sql<Record<string, unknown>>`
        select to_char(r.month, 'YYYY-MM') as "YearMonth", r.mid as "MID", r.dba as "DBA", r.agent as "Agent",
               r.office as "Office", r.payout_schedule as "PayoutSchedule", r.payout_to as "PayoutTo",
               r.transactions as "Transactions", r.volume as "Volume", r.income as "Income", r.gross as "Gross",
               r.net as "Net", r.ach_collected_gross as "ACHCollectedGross", r.ach_collected_payout as "ACHCollectedPayout",
               r.ach_collected_net as "ACHCollectedNet", r.ach_rejected_gross as "ACHRejectedGross",
               r.ach_rejected_net as "ACHRejectedNet", r.refunds_gross as "RefundsGross",
               r.refunds_payout as "RefundsPayout", r.refunds_net as "RefundsNet", r.total_gross as "TotalGross",
               r.total_payout as "TotalPayout", r.total_net as "TotalNet", r.income1 as "Income1",
               r.expense as "Expense", r.profit_loss as "ProfitLoss"
        from residuals r where r.processor = ${type === 'residual_tsys' ? 'TSYS' : 'PPS'} and r.month = ${month}::date
        order by r.mid, r.id`.compile(db);
  }
}

/** The rows of an export, held for reading after the request's transaction (see platform/heldCursor.ts). */
const holdExport = (db: Db, type: UploadType, month: string) =>
  holdCursor<Record<string, unknown>>(db, exportQuery(db, type, month));

const latestMonth = () => addMonths(monthStart(new Date()), -2);

export function uploadRoutes(app: FastifyInstance, deps: Deps) {
  for (const type of UPLOAD_TYPES) {
    const layout = uploadTypes[type];
    const endpoints = uploadEndpoints(type);
    route(app, deps, {
      endpoint: endpoints.import,
      access: 'upload_data',
      scope: 'staffOnly',
      file: true,
      bulk: true,
      // The file is read and staged before the transaction opens; the transaction applies it (platform/imports.ts).
      prepare: ({ input, file, connection }) =>
        prepareImport(
          connection,
          layout.columns,
          file ? { kind: 'xlsx', file } : { kind: 'rows', rows: input.records },
          IMPORTS[type](),
        ),
      handler: async ({ db, prepared }) => {
        const rows = await applyImport(db, prepared);
        return {
          success: true,
          message: `Imported ${rows} ${layout.label} row${rows === 1 ? '' : 's'}`,
          rows,
        };
      },
    });

    route(app, deps, {
      endpoint: endpoints.rows,
      access: 'upload_data',
      scope: 'staffOnly',
      handler: async ({ input, db }) => {
        const rows: Record<string, unknown>[] = [];
        const held = await holdExport(db, type, input.month ?? latestMonth());
        await held.forEachChunk(db, (chunk) => {
          rows.push(...chunk);
        });
        return rows;
      },
    });

    route(app, deps, {
      endpoint: endpoints.file,
      access: 'upload_data',
      scope: 'staffOnly',
      bulk: true,
      handler: async ({ input, db, reply, afterCommit }) => {
        const month = input.month ?? latestMonth();
        const columns = layout.columns.map((c) => ({
          key: c.header,
          header: c.header,
          type: c.type === 'month' ? ('text' as const) : c.type,
        }));
        const name = type === 'schedulea' ? layout.label : `${layout.label}-${month.slice(0, 7)}`;
        const held = await holdExport(db, type, month);
        afterCommit(async (connection) => {
          await sendWorkbook(reply, `${name}.xlsx`, layout.label, columns, (addRows) =>
            held.forEachChunk(connection, addRows).then(() => undefined),
          );
        });
        return undefined;
      },
    });
  }
}
