import {
  achTable,
  filterPairs,
  filtersFromPairs,
  pciBillingTable,
  pciCommissionsTable,
  pciMerchantsTable,
  pciOldMerchantsTable,
  type ReportTable,
  residualTable,
  savedColumns,
  savedFilters,
  savedReportEndpoints,
  selfServeTable,
  type TableDef,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import { type Deps, readableIssues, route } from '../../platform/http';
import type { RequestUser } from '../../platform/sessions';

/**
 * Saved reports (spec document 2 §3, §7): named snapshots of a table's filters and visible columns. They
 * belong to the signed-in user; the `email` the spec's calls carry must be that user's, and a user never
 * reads or changes another's reports. The ACH screen has its own four calls (areas/ach) over the same rules.
 */
export const savedReports = {
  async names(db: Db, user: RequestUser, table: ReportTable, email: string) {
    own(user, email);
    const rows = await db
      .selectFrom('saved_reports')
      .select('report_name')
      .where('user_id', '=', user.id)
      .where('table_name', '=', table)
      .orderBy('report_name')
      .execute();
    return rows.map((r) => ({ reportName: r.report_name }));
  },

  async get(db: Db, user: RequestUser, table: ReportTable, input: { email: string; name: string }) {
    own(user, input.email);
    const row = await db
      .selectFrom('saved_reports')
      .select(['report_name', 'filters', 'columns'])
      .where('user_id', '=', user.id)
      .where('table_name', '=', table)
      .where('report_name', '=', input.name)
      .executeTakeFirst();
    if (!row) throw notFound(`No saved report named "${input.name}"`);
    return {
      reportName: row.report_name,
      filters: JSON.stringify(row.filters),
      columns: JSON.stringify(row.columns),
    };
  },

  async save(
    db: Db,
    user: RequestUser,
    table: ReportTable,
    input: { email: string; saveTextboxVal: string; filtr: string; visCol: string },
  ) {
    own(user, input.email);
    const filters = parseFiltr(input.filtr, table);
    const columns = parseJson(input.visCol, savedColumns, 'visCol');
    await db
      .insertInto('saved_reports')
      .values({
        user_id: user.id,
        table_name: table,
        report_name: input.saveTextboxVal,
        filters: JSON.stringify(filters),
        columns: JSON.stringify(columns),
      })
      .onConflict((oc) =>
        oc.columns(['user_id', 'table_name', 'report_name']).doUpdateSet({
          filters: JSON.stringify(filters),
          columns: JSON.stringify(columns),
          updated_at: new Date(),
        }),
      )
      .execute();
    return { success: true, reportName: input.saveTextboxVal };
  },

  async remove(db: Db, user: RequestUser, table: ReportTable, input: { email: string; name: string }) {
    own(user, input.email);
    const result = await db
      .deleteFrom('saved_reports')
      .where('user_id', '=', user.id)
      .where('table_name', '=', table)
      .where('report_name', '=', input.name)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(`No saved report named "${input.name}"`);
    return { success: true, reportName: input.name };
  },
};

function own(user: RequestUser, email: string) {
  if (email.trim().toLowerCase() !== user.email)
    throw forbidden('Saved reports belong to the signed-in user');
}

export function savedReportRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: savedReportEndpoints.getAllReports,
    access: 'session',
    scope: 'platform',
    handler: ({ input, user, db }) => savedReports.names(db, user, input.table, input.email),
  });

  route(app, deps, {
    endpoint: savedReportEndpoints.getReport,
    access: 'session',
    scope: 'platform',
    handler: ({ input, user, db }) => savedReports.get(db, user, input.table, input),
  });

  route(app, deps, {
    endpoint: savedReportEndpoints.saveReport,
    access: 'session',
    scope: 'platform',
    handler: ({ input, user, db }) => savedReports.save(db, user, input.table, input),
  });

  route(app, deps, {
    endpoint: savedReportEndpoints.deleteReport,
    access: 'session',
    scope: 'platform',
    handler: ({ input, user, db }) => savedReports.remove(db, user, input.table, input),
  });
}

const TABLE_DEFS: Record<ReportTable, TableDef> = {
  selfserve: selfServeTable,
  residual: residualTable,
  ach: achTable,
  pci_merchants: pciMerchantsTable,
  pci_billing: pciBillingTable,
  pci_commissions: pciCommissionsTable,
  pci_old_merchants: pciOldMerchantsTable,
};

/** `filtr` in the spec's form (a list of column-to-value pairs) or PayDesk's object form; stored as the object. */
function parseFiltr(text: string, table: ReportTable) {
  const value = parseJson(
    text,
    { safeParse: (v: unknown) => ({ success: true as const, data: v }) },
    'filtr',
  );
  if (!Array.isArray(value)) return parseJson(text, savedFilters, 'filtr');
  const def = TABLE_DEFS[table];
  const pairs = filterPairs.safeParse(value);
  if (!pairs.success) throw badRequest(`filtr: ${readableIssues(pairs.error.issues)}`);
  let objectForm: unknown;
  try {
    objectForm = filtersFromPairs(def, pairs.data);
  } catch (err) {
    throw badRequest(`filtr: ${(err as Error).message}`);
  }
  return parseJson(JSON.stringify(objectForm), savedFilters, 'filtr');
}

function parseJson<T>(
  text: string,
  schema: {
    safeParse: (
      v: unknown,
    ) =>
      | { success: true; data: T }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  field: string,
): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(`${field} is not valid JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(`${field}: ${readableIssues(parsed.error.issues)}`);
  return parsed.data;
}
