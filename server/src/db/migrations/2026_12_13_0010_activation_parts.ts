import type { Kysely } from 'kysely';
import {
  answerVersion,
  changedBothWays,
  changedIds,
  partsTriggerFunction,
  raiseParts,
  run,
  statementTriggers,
} from './helpers';

/**
 * The Activation tab's list (/api/bonus/GetActivation: merchants approved in their volume days and the 30 days
 * after, each with its volume since approval; 300 ms to make afresh at the large scale) was kept under the bonus
 * answers' version, which every statement writing a bonus row, a merchant or a partner raises: marking a bonus paid,
 * or any merchant's status, made the next ask compute the whole list again. It is now an answer of its own,
 * `activation`, kept in parts (platform/answerCache.ts, keptArrayInParts), one per approval day, each with a version
 * in `answer_part_versions` named by the day (YYYY-MM-DD, the merchant's `approved_on`):
 *
 * - a statement writing merchants raises the approval days (before and after) of the rows it inserts or deletes,
 *   and of the rows whose columns the list reads it changes (MID, DBA, ISO, group, RM, sales rep, profile, opening
 *   and approval days); a status or closing date, which the list does not read, raises nothing;
 * - renaming a partner raises the approval days of its merchants;
 * - the answer's own version (`answer_versions`), which every part is checked against, is raised by any statement
 *   writing the daily or monthly figures the volumes are read from (an import writes every merchant's days), the
 *   activation specifications or the groups (an ISO-bound user reads the specifications of its own groups), and
 *   by a truncate of merchants or partners.
 *
 * The changed rows are found with EXCEPTs of the transition tables (helpers.ts, changedIds), which PostgreSQL
 * hashes or sorts at any size: the new rows of the changed ones and the old rows of the changed ones, each
 * carrying its approval day, so a moved approval day raises both days.
 */
/** The merchant columns the Activation list reads (2026_12_18_0010 finds a statement's changes of them too). */
export const ACTIVATION_MERCHANT_COLUMNS = [
  'mid',
  'dba',
  'partner_id',
  'group_id',
  'rm',
  'sales_rep',
  'profile',
  'opened_on',
  'approved_on',
];
const days = (select: string) => raiseParts('activation', `select x.day::text from (${select}) x(day)`);
const fn = (name: string, body: Parameters<typeof partsTriggerFunction>[2]) =>
  partsTriggerFunction(name, 'activation', body);

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    // The Activation list leaves the bonus answers: the specifications no longer raise their version.
    'drop trigger activation_specs_bonus_answer_version on activation_specs',
    ...answerVersion('activation', ['merchant_daily', 'merchant_monthly', 'activation_specs', 'groups']),
    fn('paydesk_merchants_activation_parts', {
      insert: days('select approved_on from new_rows'),
      update: days(changedBothWays(ACTIVATION_MERCHANT_COLUMNS, 'approved_on')),
      delete: days('select approved_on from old_rows'),
    }),
    fn('paydesk_partners_activation_parts', {
      update: days(`select m.approved_on from merchants m
        where m.partner_id in (${changedIds(['account_name'])}) and m.approved_on is not null`),
      delete: days(`select m.approved_on from merchants m
        where m.partner_id in (select id from old_rows) and m.approved_on is not null`),
    }),
    ...statementTriggers('merchants', 'activation_parts', 'paydesk_merchants_activation_parts'),
    ...statementTriggers('partners', 'activation_parts', 'paydesk_partners_activation_parts'),
  ]);
}
