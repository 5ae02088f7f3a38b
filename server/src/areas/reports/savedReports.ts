import {
  deleteReportBody,
  getAllReportsBody,
  getReportBody,
  reportPaths,
  type SavedReport,
  type SavedReportName,
  savedColumns,
  savedFilters,
  saveReportBody,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import { type Deps, readableIssues, route } from '../../platform/http';
import type { RequestUser } from '../../platform/sessions';

/**
 * Saved reports (spec document 2 §3, §7): named snapshots of a table's filters and visible columns. They
 * belong to the signed-in user; the `email` the spec's calls carry must be that user's, and a user never
 * reads or changes another's reports.
 */
export function savedReportRoutes(app: FastifyInstance, deps: Deps) {
  const own = (user: RequestUser, email: string) => {
    if (email.trim().toLowerCase() !== user.email)
      throw forbidden('Saved reports belong to the signed-in user');
  };

  route(app, deps, {
    method: 'POST',
    url: reportPaths.getAllReports,
    access: 'session',
    data: 'platform',
    input: getAllReportsBody,
    handler: async ({ input, user, db }): Promise<SavedReportName[]> => {
      own(user, input.email);
      const rows = await db
        .selectFrom('saved_reports')
        .select('report_name')
        .where('user_id', '=', user.id)
        .where('table_name', '=', input.table)
        .orderBy('report_name')
        .execute();
      return rows.map((r) => ({ reportName: r.report_name }));
    },
  });

  route(app, deps, {
    method: 'POST',
    url: reportPaths.getReport,
    access: 'session',
    data: 'platform',
    input: getReportBody,
    handler: async ({ input, user, db }): Promise<SavedReport> => {
      own(user, input.email);
      const row = await db
        .selectFrom('saved_reports')
        .select(['report_name', 'filters', 'columns'])
        .where('user_id', '=', user.id)
        .where('table_name', '=', input.table)
        .where('report_name', '=', input.name)
        .executeTakeFirst();
      if (!row) throw notFound(`No saved report named "${input.name}"`);
      return {
        reportName: row.report_name,
        filters: JSON.stringify(row.filters),
        columns: JSON.stringify(row.columns),
      };
    },
  });

  route(app, deps, {
    method: 'POST',
    url: reportPaths.saveReport,
    access: 'session',
    data: 'platform',
    input: saveReportBody,
    handler: async ({ input, user, db }) => {
      own(user, input.email);
      const filters = parseJson(input.filtr, savedFilters, 'filtr');
      const columns = parseJson(input.visCol, savedColumns, 'visCol');
      await db
        .insertInto('saved_reports')
        .values({
          user_id: user.id,
          table_name: input.table,
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
  });

  route(app, deps, {
    method: 'POST',
    url: reportPaths.deleteReport,
    access: 'session',
    data: 'platform',
    input: deleteReportBody,
    handler: async ({ input, user, db }) => {
      own(user, input.email);
      const result = await db
        .deleteFrom('saved_reports')
        .where('user_id', '=', user.id)
        .where('table_name', '=', input.table)
        .where('report_name', '=', input.name)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound(`No saved report named "${input.name}"`);
      return { success: true, reportName: input.name };
    },
  });
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
