import { addMonths, financialEndpoints, monthStart } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { keptJson, scopeKey } from '../../platform/answerCache';
import { type Deps, route } from '../../platform/http';
import { averages, monthTotals, optionsJson, resolveFilters, series } from './queries';

/** The financial dashboard (spec document 1 §2, §7 Financial). */
export function financialRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: financialEndpoints.options,
    access: 'session',
    scope: 'iso',
    // The same for every caller of one scope until a merchant, partner or MCC changes: kept per scope.
    handler: ({ db, user }) =>
      keptJson(deps.db, db, 'fin_options', scopeKey(user, 'options'), () => optionsJson(db)),
  });

  route(app, deps, {
    endpoint: financialEndpoints.average,
    access: 'session',
    scope: 'iso',
    handler: async ({ input, db, user }) => {
      const filters = await resolveFilters(db, input.filters);
      const filtered = await monthTotals(db, filters, input.start, input.end, user.isoId);
      const everyone = await monthTotals(
        db,
        await resolveFilters(db, {}),
        input.start,
        input.end,
        user.isoId,
      );
      return { output: [averages(filtered), averages(everyone)] };
    },
  });

  route(app, deps, {
    endpoint: financialEndpoints.data,
    access: 'session',
    scope: 'iso',
    handler: async ({ input, db, user }) => {
      const current = monthStart(new Date());
      const start = input.start < addMonths(current, -240) ? addMonths(current, -240) : input.start;
      const filters = await resolveFilters(db, input.filters);
      return { output: series(await monthTotals(db, filters, start, current, user.isoId)) };
    },
  });
}
