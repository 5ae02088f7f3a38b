import type { Kysely } from 'kysely';
import { ISO_ROLE, partsTriggerFunction, raiseParts, run, statementTriggers } from './helpers';

/**
 * The year's approvals (/api/approvedYTD_Details) kept in parts (platform/answerCache.ts, keptArrayInParts) with a
 * version per day in `answer_part_versions`, raised in the writing transaction by a statement that writes an
 * approved application of that day, renames (MID or DBA) a merchant with an approval of that day, or renames a
 * partner with one. Any other write (a merchant's status, an application still pending) leaves every day as it was,
 * and a write to one day leaves the parts of other days kept: the first ask after an approval reads that day's
 * approvals, not the year's. A truncate of any of the three tables raises the answer's version in
 * `answer_versions`, which every part is checked against as well.
 *
 * A day is named in UTC, for an instant and for 14 hours either side of it (the widest offsets of a time zone):
 * whatever the reading session's time zone, the day it files an approval under is one of those (any day that
 * overlaps those 28 hours holds one of the three instants), so that day's version is raised.
 */
export const days = (stamps: string) =>
  raiseParts(
    'approvals',
    `select to_char((s.stamp at time zone 'UTC') + o.shift, 'YYYY-MM-DD')
     from (${stamps}) s(stamp), (values (interval '-14 hours'), (interval '0'), (interval '14 hours')) o(shift)`,
  );
const fn = (name: string, body: Parameters<typeof partsTriggerFunction>[2]) =>
  partsTriggerFunction(name, 'approvals', body);

/** The approval instants of the applications of a set of merchants (`ids`: a select of merchant ids). */
export const ofMerchants = (ids: string) =>
  `select a.approved_at from applications a where a.merchant_id in (${ids}) and a.approved_at is not null`;
export const ofPartners = (ids: string) =>
  `select a.approved_at from applications a where a.partner_id in (${ids}) and a.approved_at is not null`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table answer_part_versions (
       name text not null, part text not null, version bigint not null default 0, primary key (name, part))`,
    `grant select on answer_part_versions to ${ISO_ROLE}`,
    `revoke insert, update, delete on answer_part_versions from ${ISO_ROLE}`,
    // A merchant's approvals, found by index when a merchant is renamed.
    `create index applications_merchant_approved on applications (merchant_id)
       where merchant_id is not null and approved_at is not null`,
    'drop trigger applications_approvals_answer_version on applications',
    'drop trigger merchants_approvals_answer_version on merchants',
    'drop trigger partners_approvals_answer_version on partners',
    fn('paydesk_applications_approvals_parts', {
      insert: days('select approved_at from new_rows'),
      update: days('select approved_at from new_rows union all select approved_at from old_rows'),
      delete: days('select approved_at from old_rows'),
    }),
    fn('paydesk_merchants_approvals_parts', {
      update: days(
        ofMerchants(`select n.id from new_rows n join old_rows o on o.id = n.id
          where n.mid is distinct from o.mid or n.dba is distinct from o.dba
          union all select id from new_rows where id not in (select id from old_rows)`),
      ),
      delete: days(ofMerchants('select id from old_rows')),
    }),
    fn('paydesk_partners_approvals_parts', {
      update: days(
        ofPartners(`select n.id from new_rows n join old_rows o on o.id = n.id
          where n.account_name is distinct from o.account_name
          union all select id from new_rows where id not in (select id from old_rows)`),
      ),
      delete: days(ofPartners('select id from old_rows')),
    }),
    ...statementTriggers('applications', 'approvals_parts', 'paydesk_applications_approvals_parts'),
    ...statementTriggers('merchants', 'approvals_parts', 'paydesk_merchants_approvals_parts'),
    ...statementTriggers('partners', 'approvals_parts', 'paydesk_partners_approvals_parts'),
  ]);
}
