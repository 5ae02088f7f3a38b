import { isoEndpoints, isoPartnersTableEndpoints, monthLabel } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { type Deps, route } from '../../platform/http';
import { tableRoutes } from '../../platform/tableRoutes';
import { allPartners, partnerStatuses, partnersSource, rangesForMonth } from './queries';

/** The ISO partners dashboard (spec document 3 §2.6, §7 "ISO partners"). */
export function isoRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: isoEndpoints.partners,
    access: 'session',
    scope: 'iso',
    handler: ({ input, db }) => allPartners(db, input),
  });

  route(app, deps, {
    endpoint: isoEndpoints.partnersStatus,
    access: 'session',
    scope: 'iso',
    handler: ({ input, db }) => partnerStatuses(db, input),
  });

  tableRoutes(app, deps, {
    access: 'session',
    scope: 'iso',
    endpoints: isoPartnersTableEndpoints,
    source: ({ month }) => partnersSource(rangesForMonth(month)),
    file: ({ month }) => ({ name: `ISO-Performance-${month.slice(0, 7)}.xlsx`, sheet: monthLabel(month) }),
  });
}
