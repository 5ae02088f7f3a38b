import { biEndpoints } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { keptJson, scopeKey } from '../../platform/answerCache';
import { type Deps, route } from '../../platform/http';
import {
  allInformationJson,
  analyticsData,
  analyticsOptions,
  income,
  mccCounts,
  transactions,
} from './queries';

/**
 * ISO analytics (spec document 2 §2.10, §7) and the executive ISO screen (document 3 §2.1, §7); docs/bi.md.
 * ISO analytics is a dashboard like the others: everyone signed in, an ISO-bound user seeing their own ISO's
 * groups only. The executive calls need the Business Intelligence capability; they run ISO-scoped as well, so
 * row-level security stays the last word even though partner staff cannot hold a capability.
 *
 * ISO analytics and the ISO list are the same for every caller of one scope until a merchant, its income, a group
 * or a partner changes, or the day turns: they are kept per scope (platform/answerCache.ts, version 'bi').
 */
export function biRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: biEndpoints.isoAnalyticsOptions,
    access: 'session',
    scope: 'iso',
    handler: async ({ db }) => ({ output: await analyticsOptions(db) }),
  });

  route(app, deps, {
    endpoint: biEndpoints.isoAnalyticsData,
    access: 'session',
    scope: 'iso',
    handler: async ({ db, input, user }) => {
      // Chosen groups in any order are the same question.
      const key = JSON.stringify({ ...input, groups: [...input.groups].sort() });
      const kept = scopeKey(user, 'analytics', key);
      return keptJson(
        deps.db,
        db,
        'bi',
        kept,
        () => analyticsData(db, input, { database: deps.db, key: kept }),
        {
          byDay: true,
        },
      );
    },
  });

  route(app, deps, {
    endpoint: biEndpoints.allInformation,
    access: 'bi',
    scope: 'iso',
    handler: ({ db, user }) =>
      keptJson(deps.db, db, 'bi', scopeKey(user, 'information'), () => allInformationJson(db), {
        byDay: true,
      }),
  });

  route(app, deps, {
    endpoint: biEndpoints.transactions,
    access: 'bi',
    scope: 'iso',
    handler: ({ db, input }) => transactions(db, input),
  });

  route(app, deps, {
    endpoint: biEndpoints.income,
    access: 'bi',
    scope: 'iso',
    handler: ({ db, input }) => income(db, input),
  });

  route(app, deps, {
    endpoint: biEndpoints.mcc,
    access: 'bi',
    scope: 'iso',
    handler: ({ db, input }) => mccCounts(db, input.groupIDs),
  });
}
