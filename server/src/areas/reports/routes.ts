import {
  monthImportQuery,
  monthLabel,
  monthStart,
  reportEndpoints,
  residualImportColumns,
  selfServeImportColumns,
  type TableDef,
  type UploadColumn,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AnswerName } from '../../platform/answerCache';
import { badRequest } from '../../platform/errors';
import { type Deps, route } from '../../platform/http';
import { applyImport, type ImportSteps, prepareImport } from '../../platform/imports';
import { holdRows, queryPage, type TableSource } from '../../platform/tableQuery';
import { tableRoutes } from '../../platform/tableRoutes';
import { applySelfServeImport, residualImport } from './imports';
import { latestResidualMonth, residualMonth, selfServeMonth } from './months';
import { residualSource, selfServeSource } from './tables';

/** A row as the toolkit reads it: money as decimal text, counts as numbers, dates as YYYY-MM-DD. */
type ReportRow = Record<string, string | number | null>;

/** The spec's search calls answer at most this many rows. */
const SEARCH_LIMIT = 1000;

interface MonthReport<Id extends string> {
  name: string;
  source: TableSource<Id>;
  monthColumn: string;
  checkMonth: (dt: string) => string;
  defaultMonth: () => string;
  endpoints: (typeof reportEndpoints)['selfServe'];
  tableEndpoints: (typeof reportEndpoints)['selfServeTable'];
  importColumns: readonly UploadColumn[];
  /** How an import of the month on screen applies its rows. */
  importSteps: (month: string) => ImportSteps;
  /**
   * The answer a page's count and totals are kept under (platform/tableQuery.ts, KeptCounts), per month shown: Self
   * Serve's rows raise their month's version (migration 2026_12_14_0010), and so do the residuals' and the
   * publishing of a month imported anew, a partition attached, which fires no trigger (2026_12_15_0020).
   */
  countsAnswer: AnswerName;
}

const selfServe: MonthReport<string> = {
  name: 'SelfServe',
  source: selfServeSource,
  monthColumn: 's.month',
  checkMonth: selfServeMonth,
  defaultMonth: () => monthStart(new Date()),
  endpoints: reportEndpoints.selfServe,
  tableEndpoints: reportEndpoints.selfServeTable,
  importColumns: selfServeImportColumns,
  importSteps: (month) => ({ finish: (db) => applySelfServeImport(db, month) }),
  countsAnswer: 'selfserve_counts',
};

const residual: MonthReport<string> = {
  name: 'ResidualSelfServe',
  source: residualSource,
  monthColumn: 'r.month',
  checkMonth: residualMonth,
  defaultMonth: latestResidualMonth,
  endpoints: reportEndpoints.residual,
  tableEndpoints: reportEndpoints.residualTable,
  importColumns: residualImportColumns,
  // The file names its months and processors; the month on screen is only where the user was.
  importSteps: () => residualImport('file'),
  countsAnswer: 'residual_counts',
};

const allColumns = (def: TableDef) => def.columns.map((c) => c.id);
const noFilters = { filters: [], sort: [], search: '' };

/** Spec document 2 §7: Self Serve and Residual Self Serve, plus the table toolkit's query, export and import. */
export function reportRoutes(app: FastifyInstance, deps: Deps) {
  for (const report of [selfServe, residual]) {
    const inMonth = (dt: string) => [sql`${sql.raw(report.monthColumn)} = ${report.checkMonth(dt)}::date`];

    // The spec's call: every row of the month, as a list.
    route(app, deps, {
      endpoint: report.endpoints.month,
      access: 'session',
      scope: 'iso',
      handler: async ({ input, db }) => {
        const rows: ReportRow[] = [];
        const held = await holdRows<string, ReportRow>(
          db,
          report.source,
          noFilters,
          allColumns(report.source.def),
          inMonth(input.dt),
        );
        await held.forEachChunk(db, (chunk) => {
          rows.push(...chunk);
        });
        return rows;
      },
    });

    route(app, deps, {
      endpoint: report.endpoints.search,
      access: 'session',
      scope: 'iso',
      handler: async ({ input, db }) => {
        const page = await queryPage<string, ReportRow>(
          db,
          { ...report.source, def: { ...report.source.def, pageSizes: [SEARCH_LIMIT] } },
          { ...noFilters, search: input.val, page: 1, pageSize: SEARCH_LIMIT },
          inMonth(input.dt ?? report.defaultMonth()),
        );
        return page.rows;
      },
    });

    tableRoutes(app, deps, {
      access: 'session',
      scope: 'iso',
      endpoints: report.tableEndpoints,
      source: () => report.source,
      base: ({ dt }) => inMonth(dt),
      keptCounts: ({ dt }) => ({ answer: report.countsAnswer, part: dt }),
      file: ({ dt }) => ({ name: `${report.name}-${dt.slice(0, 7)}.xlsx`, sheet: monthLabel(dt) }),
    });

    route(app, deps, {
      endpoint: report.endpoints.import,
      access: 'import_reports',
      scope: 'staffOnly',
      query: monthImportQuery,
      file: true,
      bulk: true,
      // Imports change every ISO's totals (the monthly rollups): internal staff only, by the route's scope.
      // The file is read and staged before the transaction opens; the transaction applies it (platform/imports.ts).
      prepare: ({ query, file, connection }) => {
        const month = report.checkMonth(query.dt);
        if (!file) throw badRequest('Send the .xlsx file as the request body');
        return prepareImport(
          connection,
          report.importColumns,
          { kind: 'xlsx', file },
          report.importSteps(month),
        );
      },
      handler: async ({ db, prepared }) => {
        const rows = await applyImport(db, prepared);
        return { success: true, message: `Imported ${rows} row${rows === 1 ? '' : 's'}`, rows };
      },
    });
  }
}
