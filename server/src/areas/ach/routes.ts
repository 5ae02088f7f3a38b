import {
  ACH_EXPORT_FILE,
  ACH_EXPORT_SHEET,
  ACH_STALE_EDIT_MESSAGE,
  achEndpoints,
  parseAchEdit,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest, notFound } from '../../platform/errors';
import { type Deps, route } from '../../platform/http';
import { tableRoutes } from '../../platform/tableRoutes';
import { savedReports } from '../reports/savedReports';
import { achHistory, achList, achTableRow, applyAchEdit, returnRatesPanel } from './queries';
import { achSource, achStaffSource } from './table';

const noSuchRow = (id: number, historic: boolean) =>
  notFound(`No ${historic ? 'historic' : 'live'} ACH row ${id}`);

/**
 * ACH returns (spec document 2 §7, document 3 §7): the spec's list, the edit call, the saved ACH reports, and
 * PayDesk's table, history and return-rate panel. Everyone signed in reads (ISO-bound users their ISO's rows,
 * by row-level security); editing needs `ach_edit`.
 */
export function achRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: achEndpoints.list,
    access: 'session',
    scope: 'iso',
    handler: ({ db }) => achList(db),
  });

  tableRoutes(app, deps, {
    access: 'session',
    scope: 'iso',
    endpoints: achEndpoints.table,
    // Staff count R01 + R10 since January by code-day; an ISO-bound user's own returns are few.
    source: (_extra, { user }) => (user && user.isoId === null ? achStaffSource : achSource),
    file: () => ({ name: ACH_EXPORT_FILE, sheet: ACH_EXPORT_SHEET }),
  });

  route(app, deps, {
    endpoint: achEndpoints.update,
    access: 'ach_edit',
    scope: 'iso',
    handler: async ({ input, db, user }) => {
      const parsed = parseAchEdit(input.column, input.value);
      if (!parsed.ok) throw badRequest(parsed.message);
      const outcome = await applyAchEdit(db, {
        id: input.unique_key,
        historic: input.historic,
        column: input.column,
        value: parsed.value,
        version: input.version,
        user,
      });
      if (outcome.kind === 'not_found') throw noSuchRow(input.unique_key, input.historic);
      if (outcome.kind === 'stale')
        throw new AppError('conflict', ACH_STALE_EDIT_MESSAGE, { version: outcome.current });
      const row = await achTableRow(db, input.unique_key);
      if (!row) throw noSuchRow(input.unique_key, input.historic);
      return {
        success: true,
        message: outcome.kind === 'unchanged' ? `${input.column} was already so` : `${input.column} saved`,
        row,
      };
    },
  });

  route(app, deps, {
    endpoint: achEndpoints.history,
    access: 'session',
    scope: 'iso',
    handler: async ({ input, db }) => {
      const changes = await achHistory(db, input.unique_key, input.historic);
      if (!changes) throw noSuchRow(input.unique_key, input.historic);
      return changes;
    },
  });

  route(app, deps, {
    endpoint: achEndpoints.returnRates,
    access: 'session',
    scope: 'iso',
    handler: ({ input, db }) => returnRatesPanel(db, input.level, input.limit),
  });

  route(app, deps, {
    endpoint: achEndpoints.getAllReports,
    access: 'session',
    scope: 'platform',
    handler: ({ input, user, db }) => savedReports.names(db, user, 'ach', input.email),
  });
  route(app, deps, {
    endpoint: achEndpoints.getReport,
    access: 'session',
    scope: 'platform',
    handler: ({ input, user, db }) => savedReports.get(db, user, 'ach', input),
  });
  route(app, deps, {
    endpoint: achEndpoints.saveReport,
    access: 'session',
    scope: 'platform',
    handler: ({ input, user, db }) => savedReports.save(db, user, 'ach', input),
  });
  route(app, deps, {
    endpoint: achEndpoints.deleteReport,
    access: 'session',
    scope: 'platform',
    handler: ({ input, user, db }) => savedReports.remove(db, user, 'ach', input),
  });
}
