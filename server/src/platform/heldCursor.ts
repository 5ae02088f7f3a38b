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
  /** Reads every row, chunk by chunk, then closes the cursor (also on error). Answers the number of rows. */
  forEachChunk(
    connection: Db,
    onChunk: (rows: Row[]) => Promise<void> | void,
    chunkSize?: number,
  ): Promise<number>;
}

/**
 * Rows per fetch. PostgreSQL answers a fetch over the network: large chunks save round trips. The embedded database
 * runs one statement at a time (in its own thread, db/embeddedDatabase.ts): a fetch of 2,000 rows of every column held
 * it 50–90 ms on two busy cores, and a sign-in that came meanwhile waited for all of it; 250 rows hold it a few ms.
 */
const CHUNK_ROWS = 2000;
const EMBEDDED_CHUNK_ROWS = 250;

export async function holdCursor<Row>(trx: Db, query: CompiledQuery<Row>): Promise<HeldCursor<Row>> {
  const name = `held_${randomBytes(6).toString('hex')}`;
  await trx.executeQuery(
    CompiledQuery.raw(`declare ${name} no scroll cursor with hold for ${query.sql}`, [...query.parameters]),
  );
  return {
    async forEachChunk(
      connection,
      onChunk,
      chunkSize = isEmbedded(connection) ? EMBEDDED_CHUNK_ROWS : CHUNK_ROWS,
    ) {
      let count = 0;
      try {
        for (;;) {
          await bulkStep(connection);
          const { rows } = await connection.executeQuery<Row>(
            CompiledQuery.raw(`fetch ${Math.max(1, Math.floor(chunkSize))} from ${name}`),
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
