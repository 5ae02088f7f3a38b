import { isoEndpoints, isoPartnersTableEndpoints, monthLabel } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { type Deps, jsonText, route } from '../../platform/http';
import { tableRoutes } from '../../platform/tableRoutes';
import { allPartners, cachedDirectory, partnerStatuses, partnersSource, rangesForMonth } from './queries';

/** The ISO partners dashboard (spec document 3 §2.6, §7 "ISO partners"). */
export function isoRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: isoEndpoints.partners,
    access: 'session',
    scope: 'iso',
    handler: async ({ input, db, user }) =>
      jsonText(await cachedDirectory(deps.db, db, user, 'partners', input, () => allPartners(db, input))),
  });

  route(app, deps, {
    endpoint: isoEndpoints.partnersStatus,
    access: 'session',
    scope: 'iso',
    handler: async ({ input, db, user }) =>
      jsonText(await cachedDirectory(deps.db, db, user, 'status', input, () => partnerStatuses(db, input))),
  });

  tableRoutes(app, deps, {
    access: 'session',
    scope: 'iso',
    endpoints: isoPartnersTableEndpoints,
    source: async ({ month }, { db, user }) => {
      const ranges = rangesForMonth(month);
      return partnersSource(
        await cachedDirectory(deps.db, db, user, 'partners', ranges, () => allPartners(db, ranges)),
      );
    },
    file: ({ month }) => ({ name: `ISO-Performance-${month.slice(0, 7)}.xlsx`, sheet: monthLabel(month) }),
  });
}
