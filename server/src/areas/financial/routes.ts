import {
  addMonths,
  type FinAverageAnswer,
  type FinDataAnswer,
  finAverageBody,
  financialPaths,
  finDataBody,
  monthStart,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { type Deps, route } from '../../platform/http';
import { averages, monthTotals, options, resolveFilters, series } from './queries';

/** The financial dashboard (spec document 1 §2, §7 Financial). */
export function financialRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    method: 'GET',
    url: financialPaths.options,
    access: 'session',
    scope: 'iso',
    handler: ({ db }) => options(db),
  });

  route(app, deps, {
    method: 'POST',
    url: financialPaths.average,
    access: 'session',
    scope: 'iso',
    input: finAverageBody,
    handler: async ({ input, db, user }): Promise<FinAverageAnswer> => {
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
    method: 'POST',
    url: financialPaths.data,
    access: 'session',
    scope: 'iso',
    input: finDataBody,
    handler: async ({ input, db, user }): Promise<FinDataAnswer> => {
      const current = monthStart(new Date());
      const start = input.start < addMonths(current, -240) ? addMonths(current, -240) : input.start;
      const filters = await resolveFilters(db, input.filters);
      return { output: series(await monthTotals(db, filters, start, current, user.isoId)) };
    },
  });
}
