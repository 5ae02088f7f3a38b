import { randomBytes } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import type { Db } from '../db/connect';
import { isEmbedded } from '../db/pglite-dialect';
import { bulkStep } from './signinFirst';

/**
 * Large answers (exports) are read from a cursor declared WITH HOLD inside the request's transaction: its rows
 * are fixed at commit, as that transaction (and its ISO scope) saw them. They are then fetched chunk by chunk
 * after the commit, outside any transaction, on the same connection (RouteContext.afterCommit). A slow client
 * therefore holds no transaction and no lock; on the embedded database each fetch holds the single connection
 * only while it runs.
 */
export interface HeldCursor<Row> {
  /**
   * Reads every row, chunk by chunk, then closes the cursor (also on error). Answers the number of rows. The chunk
   * is CHUNK_ROWS rows unless `chunkSize` says otherwise.
   */
  forEachChunk(
    connection: Db,
    onChunk: (rows: Row[]) => Promise<void> | void,
    chunkSize?: number,
  ): Promise<number>;
}

/**
 * Rows per fetch. PostgreSQL answers a fetch over the network: large chunks save round trips. The embedded database
 * answers on the server's own thread, one statement at a time, and turning its rows into objects is most of a
 * fetch's time (2,000 wide rows of an export: 50–85 ms, during which nothing else runs, a sign-in included): there
 * a chunk is a few milliseconds of work.
 */
export const CHUNK_ROWS = { postgres: 2000, embedded: 200 } as const;

export async function holdCursor<Row>(trx: Db, query: CompiledQuery<Row>): Promise<HeldCursor<Row>> {
  const name = `held_${randomBytes(6).toString('hex')}`;
  await trx.executeQuery(
    CompiledQuery.raw(`declare ${name} no scroll cursor with hold for ${query.sql}`, [...query.parameters]),
  );
  return {
    async forEachChunk(connection, onChunk, chunkSize) {
      const rowsPerFetch = chunkSize ?? (isEmbedded(connection) ? CHUNK_ROWS.embedded : CHUNK_ROWS.postgres);
      let count = 0;
      try {
        for (;;) {
          await bulkStep(connection);
          const { rows } = await connection.executeQuery<Row>(
            CompiledQuery.raw(`fetch ${Math.max(1, Math.floor(rowsPerFetch))} from ${name}`),
          );
          if (rows.length === 0) return count;
          count += rows.length;
          await onChunk(rows);
        }
      } finally {
        await connection.executeQuery(CompiledQuery.raw(`close ${name}`)).catch(() => undefined);
      }
    },
  };
}
