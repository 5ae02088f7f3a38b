import { randomBytes } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import type { Db } from '../db/connect';
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

export async function holdCursor<Row>(trx: Db, query: CompiledQuery<Row>): Promise<HeldCursor<Row>> {
  const name = `held_${randomBytes(6).toString('hex')}`;
  await trx.executeQuery(
    CompiledQuery.raw(`declare ${name} no scroll cursor with hold for ${query.sql}`, [...query.parameters]),
  );
  return {
    async forEachChunk(connection, onChunk, chunkSize = 2000) {
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
