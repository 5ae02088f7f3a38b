import { addMonths, financialEndpoints, monthStart } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { cachedAnswer, keptArrayInParts, keptJson, scopeKey } from '../../platform/answerCache';
import { type Deps, route } from '../../platform/http';
import {
  averages,
  midParts,
  midPartsJson,
  monthTotals,
  optionsGroupsJson,
  resolveFilters,
  series,
} from './queries';

/** The financial dashboard (spec document 1 §2, §7 Financial). */
export function financialRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: financialEndpoints.options,
    access: 'session',
    scope: 'iso',
    // Two kept answers per scope (migration 2026_12_13_0020): the filter groups, until a merchant is inserted or
    // deleted or a column they read changes (or a partner's name, or an MCC), and the list of every MID and DBA in
    // parts by DBA, each until one of its merchants' MID, DBA or ISO changes. The groups are the object's other
    // members: the frame of the list, which is the object's last member.
    handler: async ({ db, user }) => {
      const groups = await cachedAnswer(deps.db, db, 'fin_options', scopeKey(user, 'options'), () =>
        optionsGroupsJson(db, user.isoId !== null),
      );
      const bounds = await midParts(db);
      const byKey = new Map(bounds.map((b) => [b.part, b]));
      return keptArrayInParts(
        deps.db,
        db,
        'fin_mids',
        scopeKey(user, 'mids'),
        'all',
        bounds.map((b) => ({ key: b.part, first: b.part, last: b.part })),
        (stale) =>
          midPartsJson(
            db,
            stale.map((p) => byKey.get(p.key) as (typeof bounds)[number]),
          ),
        { open: `${groups.slice(0, groups.lastIndexOf('}'))}, "mid" : [`, close: ']}' },
      );
    },
  });

  // The groups alone, as the dashboard asks (it has no MID filter): the same kept answer as finoptions' frame, so
  // a first ask after a change reads the merchants' distinct values, never the list of every MID.
  route(app, deps, {
    endpoint: financialEndpoints.groups,
    access: 'session',
    scope: 'iso',
    handler: ({ db, user }) =>
      keptJson(deps.db, db, 'fin_options', scopeKey(user, 'options'), () =>
        optionsGroupsJson(db, user.isoId !== null),
      ),
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
