import type { TableEndpoints } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import type { RawBuilder } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/connect';
import { type AnswerName, scopeKey } from './answerCache';
import { type Access, type Deps, route, type Scope } from './http';
import type { RequestUser } from './sessions';
import { sendWorkbook } from './spreadsheets';
import { checkRequest, holdRows, queryPage, type TableRequest, type TableSource } from './tableQuery';

/**
 * The two calls every toolkit table has: a page of rows (`queryPath`) and the .xlsx of all filtered rows
 * in the visible columns (`exportPath`). `extra` holds the table's own fields (the month shown…), which
 * both calls take; `source` and `base` turn them into the table and its fixed conditions.
 */
export function tableRoutes<Id extends string, E extends z.ZodRawShape>(
  app: FastifyInstance,
  deps: Deps,
  table: {
    access: Access;
    /** Whose data the table shows; see Scope in http.ts. */
    scope: Scope;
    endpoints: { extra: E } & NoInfer<TableEndpoints<E>>;
    /**
     * The table for the request's own fields; it may read the request's transaction (`db`) and user, e.g. to
     * take rows from a cached answer (platform/answerCache.ts).
     */
    source: (
      extra: z.output<z.ZodObject<E>>,
      request: { db: Db; user: RequestUser | null },
    ) => TableSource<Id> | Promise<TableSource<Id>>;
    base?: (extra: z.output<z.ZodObject<E>>) => RawBuilder<unknown>[];
    /** Where the page's count and totals are kept between requests (tableQuery.ts, KeptCounts). */
    keptCounts?: (extra: z.output<z.ZodObject<E>>) => { answer: AnswerName; part: string };
    file: (extra: z.output<z.ZodObject<E>>) => { name: string; sheet: string };
  },
) {
  type Extra = z.output<z.ZodObject<E>>;

  route(app, deps, {
    endpoint: table.endpoints.query,
    access: table.access,
    scope: table.scope,
    handler: async ({ input, db, user }) => {
      const extra = input as unknown as Extra;
      const req = input as unknown as TableRequest & { page: number; pageSize?: number };
      const source = await table.source(extra, { db, user });
      const kept = table.keptCounts?.(extra);
      return queryPage<Id, Record<string, unknown>>(
        db,
        source,
        req,
        table.base?.(extra),
        kept && { database: deps.db, scope: scopeKey(user), ...kept },
      );
    },
  });

  route(app, deps, {
    endpoint: table.endpoints.export,
    access: table.access,
    scope: table.scope,
    bulk: true,
    handler: async ({ input, db, user, reply, afterCommit }) => {
      const extra = input as unknown as Extra;
      const req = input as unknown as TableRequest & { columns: string[] };
      const source = await table.source(extra, { db, user });
      const base = table.base?.(extra);
      // Check everything before the answer starts: once the file streams, an error cannot be reported.
      checkRequest(source, req, req.columns);
      const columns = req.columns.map((id) => {
        const col = source.def.columns.find((c) => c.id === id);
        return { key: id, header: col?.label ?? id, type: col?.type };
      });
      const { name, sheet } = table.file(extra);
      const rows = await holdRows<Id, Record<string, unknown>>(db, source, req, req.columns, base);
      afterCommit(async (connection) => {
        await sendWorkbook(reply, name, sheet, columns, (addRows) =>
          rows.forEachChunk(connection, addRows).then(() => undefined),
        );
      });
      return undefined;
    },
  });
}
