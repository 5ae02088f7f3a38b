import { isoEndpoints, isoPartnersTableEndpoints, monthLabel } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { cachedAnswer, keptJson } from '../../platform/answerCache';
import { type Deps, route } from '../../platform/http';
import { tableRoutes } from '../../platform/tableRoutes';
import { allPartners, directoryKey, partnerStatuses, partnersSource, rangesForMonth } from './queries';

/** The ISO partners dashboard (spec document 3 §2.6, §7 "ISO partners"). */
export function isoRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: isoEndpoints.partners,
    access: 'session',
    scope: 'iso',
    // Kept with its bytes as sent, so a browser gets it gzip-compressed (platform/http.ts, jsonBody).
    handler: ({ input, db, user }) =>
      keptJson(deps.db, db, 'iso_partners', directoryKey(user, 'partners', input), async () =>
        JSON.stringify(await allPartners(db, input)),
      ),
  });

  route(app, deps, {
    endpoint: isoEndpoints.partnersStatus,
    access: 'session',
    scope: 'iso',
    handler: ({ input, db, user }) =>
      keptJson(deps.db, db, 'iso_partners', directoryKey(user, 'status', input), async () =>
        JSON.stringify(await partnerStatuses(db, input)),
      ),
  });

  tableRoutes(app, deps, {
    access: 'session',
    scope: 'iso',
    endpoints: isoPartnersTableEndpoints,
    source: async ({ month }, { db, user }) => {
      const ranges = rangesForMonth(month);
      // The same kept answer as GetPartners for the month's ranges, read as text.
      return partnersSource(
        await cachedAnswer(deps.db, db, 'iso_partners', directoryKey(user, 'partners', ranges), async () =>
          JSON.stringify(await allPartners(db, ranges)),
        ),
      );
    },
    file: ({ month }) => ({ name: `ISO-Performance-${month.slice(0, 7)}.xlsx`, sheet: monthLabel(month) }),
  });
}
