import {
  isoPartnersBody,
  isoPartnersStatusBody,
  isoPartnersTableExtra,
  monthLabel,
  salesPaths,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { type Deps, route } from '../../platform/http';
import { tableRoutes } from '../../platform/tableRoutes';
import { allPartners, partnerStatuses, partnersSource, rangesForMonth } from './queries';

/** The ISO partners dashboard (spec document 3 §2.6, §7 "ISO partners"). */
export function isoRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    method: 'POST',
    url: salesPaths.isoPartners,
    access: 'session',
    scope: 'iso',
    input: isoPartnersBody,
    handler: ({ input, db }) => allPartners(db, input),
  });

  route(app, deps, {
    method: 'POST',
    url: salesPaths.isoPartnersStatus,
    access: 'session',
    scope: 'iso',
    input: isoPartnersStatusBody,
    handler: ({ input, db }) => partnerStatuses(db, input),
  });

  tableRoutes(app, deps, {
    access: 'session',
    scope: 'iso',
    queryPath: salesPaths.isoPartnersQuery,
    exportPath: salesPaths.isoPartnersExport,
    extra: isoPartnersTableExtra,
    source: ({ month }) => partnersSource(rangesForMonth(month)),
    file: ({ month }) => ({ name: `ISO-Performance-${month.slice(0, 7)}.xlsx`, sheet: monthLabel(month) }),
  });
}
