import type { BonusChangeAnswer, BonusProfile, SpecPeriod } from '@paydesk/domain';
import { BONUS_PERIOD_LABELS, BONUS_PROFILE_LABELS } from '@paydesk/domain';
import type { Db } from '../../db/connect';
import { audit } from '../../platform/audit';
import type { RequestUser } from '../../platform/sessions';

/**
 * Saving bonus specifications (spec §4 "save with force"). Every spec row is keyed by its group IDs, stored
 * normalized (sorted, comma-joined; '' for a default row). A save answers one of:
 * - success;
 * - not addable (an error no force can pass): a named ISO without group IDs, a group ID that is not the ISO's, a
 *   second default, editing a row that does not exist;
 * - addable (a warning): some group IDs already belong to another row of the same list. Saved again with
 *   force, those group IDs move to the new row (rows left without any are deleted).
 */

export type SpecTable =
  | 'bonus_specs'
  | 'bonus_excludes'
  | 'clawback_specs'
  | 'activation_specs'
  | 'extra_bonus_specs'
  | 'exclusive_equipment';

export const ok = (message: string): BonusChangeAnswer => ({ success: true, addable: true, message });
export const refused = (message: string): BonusChangeAnswer => ({ success: false, addable: false, message });
const warning = (message: string): BonusChangeAnswer => ({ success: false, addable: true, message });

export const joinGroups = (ids: readonly string[]) => [...ids].sort().join(',');

/** The ISO that owns each group ID (the partners' groups). */
async function owners(db: Db, groupIds: readonly string[]) {
  if (groupIds.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('groups as g')
    .innerJoin('partners as p', 'p.id', 'g.partner_id')
    .select(['g.group_id', 'p.account_name'])
    .where('g.group_id', 'in', [...groupIds])
    .execute();
  return new Map(rows.map((r) => [r.group_id, r.account_name]));
}

/**
 * Checks a named row's ISO and group IDs: at least one group ID, each a group of that ISO. Answers the ISO name
 * (from the groups when not given), or a refusal.
 */
export async function checkIsoGroups(
  db: Db,
  isoName: string | null | undefined,
  groupIds: readonly string[],
): Promise<{ iso: string } | { refusal: BonusChangeAnswer }> {
  if (groupIds.length === 0) return { refusal: refused('Choose at least one Group ID') };
  const found = await owners(db, groupIds);
  const unknown = groupIds.filter((g) => !found.has(g));
  if (unknown.length > 0) return { refusal: refused(`No such group ID: ${unknown.join(', ')}`) };
  const isos = new Set(found.values());
  const iso = isoName?.trim() || [...isos][0];
  if (!iso || isos.size > 1 || !isos.has(iso))
    return {
      refusal: refused(
        `The group IDs belong to ${[...isos].join(', ')}${isoName ? `, not to ${isoName}` : ''}: one ISO per row`,
      ),
    };
  return { iso };
}

interface SaveInput {
  table: SpecTable;
  /** Rows of the same list (bonus specs: of the same profile; excludes: of the same profile and period). */
  list: { profile?: BonusProfile; period?: SpecPeriod };
  /** Rows whose group IDs must not overlap (bonus specs: the includes of both periods and the exclusions). */
  overlapWith?: { table: SpecTable; profile: BonusProfile; period?: SpecPeriod }[];
  groupIds: readonly string[];
  /** The group_id of the row being edited, as listed; false when adding. */
  edit: string | false;
  force: boolean;
  values: Record<string, unknown>;
  what: string;
  user: Pick<RequestUser, 'id' | 'email'>;
}

interface Row {
  id: number;
  group_id: string;
}

async function rowsOf(db: Db, table: SpecTable, where: { profile?: BonusProfile; period?: SpecPeriod }) {
  let q = db.selectFrom(table as 'bonus_specs').select(['id', 'group_id']);
  if (where.profile) q = q.where('profile', '=', where.profile);
  if (where.period) q = q.where('period', '=', where.period);
  return (await q.execute()) as Row[];
}

/** Adds or edits a spec row keyed by group IDs, with the force flow (see the module comment). */
export async function saveSpecRow(db: Db, input: SaveInput): Promise<BonusChangeAnswer> {
  const key = joinGroups(input.groupIds);
  const own = await rowsOf(db, input.table, input.list);
  const editing =
    input.edit === false ? null : own.find((r) => r.group_id === joinGroups(splitKey(input.edit as string)));
  if (input.edit !== false && !editing)
    return refused(`No ${input.what} for group IDs "${input.edit}" to edit`);
  const others: { table: SpecTable; row: Row }[] = [];
  for (const target of input.overlapWith ?? [{ table: input.table, ...input.list }]) {
    for (const row of await rowsOf(db, target.table, target))
      if (!(target.table === input.table && row.id === editing?.id))
        others.push({ table: target.table, row });
  }
  if (key === '' && own.some((r) => r.group_id === '' && r.id !== editing?.id))
    return refused(`There is already a default ${input.what}; edit it instead`);
  const overlaps = others
    .map((o) => ({ ...o, shared: splitKey(o.row.group_id).filter((g) => input.groupIds.includes(g)) }))
    .filter((o) => o.shared.length > 0);
  if (overlaps.length > 0 && !input.force)
    return warning(
      `Group IDs ${[...new Set(overlaps.flatMap((o) => o.shared))].join(', ')} already have a ${input.what}${overlaps.some((o) => o.table !== input.table) ? ' or an exclusion' : ''}. Save anyway and move them to this one?`,
    );
  for (const o of overlaps) {
    const rest = splitKey(o.row.group_id).filter((g) => !input.groupIds.includes(g));
    if (rest.length === 0)
      await db
        .deleteFrom(o.table as 'bonus_specs')
        .where('id', '=', o.row.id)
        .execute();
    else
      await db
        .updateTable(o.table as 'bonus_specs')
        .set({ group_id: joinGroups(rest) })
        .where('id', '=', o.row.id)
        .execute();
  }
  const values = { ...input.values, group_id: key };
  if (editing)
    await db
      .updateTable(input.table as 'bonus_specs')
      .set(values as never)
      .where('id', '=', editing.id)
      .execute();
  else
    await db
      .insertInto(input.table as 'bonus_specs')
      .values(values as never)
      .execute();
  const moved =
    overlaps.length > 0 ? ` (moved ${overlaps.flatMap((o) => o.shared).join(', ')} from other rows)` : '';
  const message = `${editing ? 'Edited' : 'Added'} the ${input.what} for ${key === '' ? 'the default' : `group IDs ${key}`}${moved}`;
  await logChange(db, input.user, message, { table: input.table, groupIds: key, values: input.values });
  return ok(message);
}

export const splitKey = (key: string) => key.split(',').filter((g) => g.length > 0);

/** Deletes a spec row by its group IDs; the default row of clawback specs cannot be deleted. */
export async function deleteSpecRow(
  db: Db,
  input: {
    table: SpecTable;
    list?: { profile?: BonusProfile; period?: SpecPeriod };
    groupKey: string;
    what: string;
    user: Pick<RequestUser, 'id' | 'email'>;
  },
): Promise<BonusChangeAnswer> {
  const key = joinGroups(splitKey(input.groupKey));
  if (input.table === 'clawback_specs' && key === '')
    return refused('The default clawback row cannot be deleted');
  const row = (await rowsOf(db, input.table, input.list ?? {})).find((r) => r.group_id === key);
  if (!row) return refused(`No ${input.what} for ${key === '' ? 'the default' : `group IDs ${key}`}`);
  await db
    .deleteFrom(input.table as 'bonus_specs')
    .where('id', '=', row.id)
    .execute();
  const message = `Deleted the ${input.what} for ${key === '' ? 'the default' : `group IDs ${key}`}`;
  await logChange(db, input.user, message, { table: input.table, groupIds: key });
  return ok(message);
}

export async function logChange(
  db: Db,
  user: Pick<RequestUser, 'id' | 'email'>,
  description: string,
  details: Record<string, unknown>,
  action: 'bonus.spec' | 'bonus.mark' = 'bonus.spec',
) {
  await audit(db, { actor: user, action, subject: null, details: { description, ...details } });
}

export const listLabel = (profile: BonusProfile, period: SpecPeriod) =>
  `${BONUS_PERIOD_LABELS[period]} ${BONUS_PROFILE_LABELS[profile]}`;
