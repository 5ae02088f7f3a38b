import type { Kysely } from 'kysely';
import { ISO_ROLE, run, scopeToIso } from './helpers';

/**
 * GetAllInformation (the executive ISO list) counted every merchant into twenty figures per ISO whenever its kept
 * answer was asked first after a change: 86,000 merchants, 80–150 ms at the large scale. `bi_iso_info` keeps each
 * ISO's figures as of a day (`as_of`), rebuilt for the ISOs a merchant change reaches in the changing transaction
 * (db/derived.ts, refreshDerived) and for every ISO once a day (the bi.iso-info job); the call reads it when every
 * row it can see is of today, else counts the merchants as before (areas/bi/queries.ts, allInformation).
 * It starts empty: the job fills it within the hour, and the seed's rebuild fills it. Row-level security as for
 * the merchants: an ISO user reads its own ISO's row only, and writes none (issue 18).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table bi_iso_info (
       partner_id integer primary key references partners (id),
       as_of date not null,
       approved_deals integer not null,
       first date not null,
       last date not null,
       open_deals integer not null,
       closed_deals integer not null,
       open_longest integer,
       open_shortest integer,
       closed_longest integer,
       closed_shortest integer,
       open_age_set text not null,
       closed_age_set text not null,
       cbcal integer not null,
       esquire integer not null,
       chesapeake integer not null,
       pl_count integer not null,
       tr_count integer not null,
       hr_count integer not null,
       ns_count integer not null
     )`,
  ]);
  await scopeToIso(db, 'bi_iso_info');
  // Only the refreshes write it.
  await run(db, [
    `grant select on bi_iso_info to ${ISO_ROLE}`,
    `revoke insert, update, delete on bi_iso_info from ${ISO_ROLE}`,
  ]);
}
