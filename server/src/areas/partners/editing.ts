import { type AddGroupIdAnswer, type AddGroupIdBody, NEW_GROUP_PROCESSOR } from '@paydesk/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { audit } from '../../platform/audit';
import type { Crm } from '../../platform/crm';
import { badRequest, notFound } from '../../platform/errors';

/** A percentage as entered (already checked: 0–100, two decimals) as the stored fraction. */
export const percentToFraction = (percent: number) => (Math.round(percent * 100) / 10000).toFixed(4);

interface Actor {
  id: number;
  email: string;
}

/**
 * The next group ID and association number of a bank. `update … returning` takes the bank's row lock, so a
 * second editor adding at the same moment waits for this transaction and gets the following pair; the sequence
 * only moves forward, so a number is never handed out twice. A number some group already holds (one the CRM
 * import brought in) is passed over.
 */
async function allocate(db: Db, bank: string): Promise<{ groupId: string; association: string }> {
  for (let tries = 0; tries < 10_000; tries++) {
    const { rows } = await sql<{ group_id: string; association: string }>`
      update group_id_sequences set next_group_id = next_group_id + 1, next_association = next_association + 1
      where bank = ${bank}
      returning (next_group_id - 1)::text as group_id, (next_association - 1)::text as association`.execute(
      db,
    );
    const row = rows[0];
    if (!row) throw badRequest(`Bank ${bank} has no group ID sequence`);
    const taken = await sql<{ n: number }>`
      select 1 as n from groups where group_id = ${row.group_id} or association_number = ${row.association}
      union all select 1 from crm_groups where group_id = ${row.group_id} limit 1`.execute(db);
    if (taken.rows.length === 0) return { groupId: row.group_id, association: row.association };
  }
  throw new Error(`No free group ID found for ${bank}`);
}

export async function addGroup(
  db: Db,
  crm: Crm,
  actor: Actor,
  input: { [K in keyof AddGroupIdBody]-?: K extends 'revshare' ? number : AddGroupIdBody[K] },
  ip: string,
): Promise<AddGroupIdAnswer> {
  const partner = await db
    .selectFrom('partners')
    .select(['id', 'account_name'])
    .where('account_id', '=', input.accountid)
    .executeTakeFirst();
  if (!partner) throw notFound(`No partner account ${input.accountid}`);
  const { groupId, association } = await allocate(db, input.bank);
  const revShare = percentToFraction(input.revshare);
  const group = {
    account_id: input.accountid,
    group_name: input.groupname,
    group_id: groupId,
    association_number: association,
    rev_share: revShare,
    bank: input.bank,
    profile: input.profile ?? null,
    processor: NEW_GROUP_PROCESSOR,
    effective_date: input.effectivedate,
  };
  // The CRM first: if it refuses, the transaction rolls back and the numbers go back to the sequence.
  const groupSfId = await crm.createGroup(db, group);
  const { account_id: _account, ...columns } = group;
  const inserted = await db
    .insertInto('groups')
    .values({ ...columns, partner_id: partner.id, group_sf_id: groupSfId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('rev_share_history')
    .values({
      partner_id: partner.id,
      group_row_id: inserted.id,
      old_rev_share: null,
      new_rev_share: revShare,
      changed_by_user_id: actor.id,
      changed_by: actor.email,
    })
    .execute();
  await audit(db, {
    actor,
    action: 'partner.group_add',
    subject: partner.account_name,
    ip,
    details: { groupId, association, bank: input.bank, groupName: input.groupname, revShare },
  });
  return {
    success: true,
    message: `Group ${groupId} added to ${partner.account_name}`,
    group_sf_id: groupSfId,
    groupid: groupId,
    association_number: association,
    groupname: input.groupname,
    rev_share: Number(revShare),
    bank: input.bank,
    profile: input.profile ?? null,
    processor: NEW_GROUP_PROCESSOR,
    effectivedate: input.effectivedate,
  };
}

export async function updateRevShare(
  db: Db,
  crm: Crm,
  actor: Actor,
  groupId: string,
  percent: number,
  ip: string,
): Promise<{ success: true; message: string; group_id: string; rev_share: number }> {
  // for update: two editors saving the same cell are recorded one after the other, each with the true old value.
  const group = await db
    .selectFrom('groups as g')
    .innerJoin('partners as p', 'p.id', 'g.partner_id')
    .select(['g.id', 'g.partner_id', 'g.group_sf_id', 'g.rev_share', 'p.account_name'])
    .where('g.group_id', '=', groupId)
    .forUpdate('g')
    .executeTakeFirst();
  if (!group) throw notFound(`No group ${groupId}`);
  const revShare = percentToFraction(percent);
  const old = Number(group.rev_share).toFixed(4);
  if (old !== revShare) {
    await db.updateTable('groups').set({ rev_share: revShare }).where('id', '=', group.id).execute();
    await crm.setRevShare(db, group.group_sf_id, revShare);
    await db
      .insertInto('rev_share_history')
      .values({
        partner_id: group.partner_id,
        group_row_id: group.id,
        old_rev_share: old,
        new_rev_share: revShare,
        changed_by_user_id: actor.id,
        changed_by: actor.email,
      })
      .execute();
    await audit(db, {
      actor,
      action: 'partner.rev_share',
      subject: group.account_name,
      ip,
      details: { groupId, from: old, to: revShare },
    });
  }
  return {
    success: true,
    message: old === revShare ? 'Rev share unchanged' : `Rev share of ${groupId} set to ${percent}%`,
    group_id: groupId,
    rev_share: Number(revShare),
  };
}
