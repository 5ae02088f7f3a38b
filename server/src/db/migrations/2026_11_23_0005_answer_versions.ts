import type { Kysely } from 'kysely';
import { ISO_ROLE, run } from './helpers';

/**
 * A version counter per cached answer (platform/answerCache.ts): a statement-level trigger on each table an answer
 * reads raises the counter in the writing transaction, so a request that reads the counter sees the version its
 * own snapshot of those tables has. ISO-bound requests may read the counters (they say nothing but "changed"),
 * never write them; the trigger function runs as its owner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table answer_versions (name text primary key, version bigint not null default 0)`,
    `insert into answer_versions (name) values ('partners')`,
    `revoke insert, update, delete on answer_versions from ${ISO_ROLE}`,
    `create function paydesk_bump_answer_version() returns trigger language plpgsql security definer
       set search_path = public as $$
     begin
       update answer_versions set version = version + 1 where name = tg_argv[0];
       return null;
     end $$`,
    `create trigger partners_answer_version after insert or update or delete or truncate on partners
       for each statement execute function paydesk_bump_answer_version('partners')`,
    `create trigger groups_answer_version after insert or update or delete or truncate on groups
       for each statement execute function paydesk_bump_answer_version('partners')`,
  ]);
}
