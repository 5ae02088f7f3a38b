import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * A month's residuals are kept in the order of their agent (the ISO a row pays). The residual report is read by
 * agent: staff filter a month by one, and an ISO-bound user reads its own rows only. In MID order, the rows of the
 * agents starting with "s" (5,804 of 152,711 with a net of $100 or more, at the xl scale) lay on 3,360 of the
 * month's 5,420 pages, and both the page and its count and totals read them all: 23.7 and 17.0 ms. In agent order
 * they lie on 278 pages: 7.8 and 12.8 ms.
 *
 * Existing months are rewritten in that order here, each partition by the index it has on (month, lower(agent),
 * total_net): CLUSTER on the partitioned table cannot run in a migration's transaction, and on one partition it
 * can. The seed writes the rows in that order (db/seed/activity.ts), and an import writes each batch of rows in it
 * (areas/reports/imports.ts), so a month imported in batches lies in a few runs of agents, one per batch.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `do $$
     declare p record;
     begin
       for p in
         select c.relname as partition, i.relname as index
         from pg_inherits h
         join pg_class i on i.oid = h.inhrelid
         join pg_index x on x.indexrelid = i.oid
         join pg_class c on c.oid = x.indrelid
         where h.inhparent = 'residuals_month_agent_net'::regclass
         order by c.relname
       loop
         execute format('cluster %I using %I', p.partition, p.index);
       end loop;
     end $$`,
  ]);
}
