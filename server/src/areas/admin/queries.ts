import {
  type AuditColumn,
  type AuditFacts,
  type AuditRow,
  auditTable,
  type Capability,
  describeAudit,
  type IsoOption,
  type OutboxColumn,
  type OutboxRow,
  type outboxMessage,
  outboxTable,
  type UserRow,
} from '@paydesk/domain';
import type { z } from 'zod';
import type { Db } from '../../db/connect';
import type { TableSource } from '../../platform/tableQuery';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function listUsers(db: Db, id?: number): Promise<UserRow[]> {
  let query = db
    .selectFrom('users as u')
    .leftJoin('partners as p', 'p.id', 'u.partner_id')
    .select([
      'u.id',
      'u.email',
      'u.department',
      'u.active',
      'u.locked_until',
      'u.partner_id',
      'p.account_name',
      'u.last_signin_at',
      'u.created_at',
    ])
    .orderBy('u.email');
  if (id !== undefined) query = query.where('u.id', '=', id);
  const users = await query.execute();
  const caps = await db
    .selectFrom('user_capabilities')
    .select(['user_id', 'capability'])
    .orderBy('capability')
    .execute();
  const capsByUser = new Map<number, Capability[]>();
  for (const c of caps) capsByUser.set(c.user_id, [...(capsByUser.get(c.user_id) ?? []), c.capability]);
  const now = Date.now();
  return users.map((u) => {
    const locked = u.locked_until !== null && new Date(u.locked_until).getTime() > now;
    return {
      id: u.id,
      email: u.email,
      department: u.department,
      capabilities: capsByUser.get(u.id) ?? [],
      active: u.active,
      locked,
      lockedUntil: locked ? iso(u.locked_until) : null,
      isoId: u.partner_id,
      isoName: u.account_name,
      lastSigninAt: iso(u.last_signin_at),
      createdAt: iso(u.created_at) ?? '',
    };
  });
}

export async function countActiveAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('department', '=', 'admin')
    .where('active', '=', true)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** The audit log as a toolkit table; `description` is made from the code, account and details in code. */
export const auditSource: TableSource<AuditColumn> = {
  def: auditTable,
  from: 'audit_log a',
  expressions: {
    at: 'a.at',
    actor: 'a.actor_email',
    action: 'a.action',
    description: "jsonb_build_object('action', a.action, 'subject', a.subject, 'details', a.details)",
    subject: 'a.subject',
    ip: 'a.ip',
  },
  searchable: ['actor', 'subject'],
  tiebreak: 'a.id desc',
  present: { description: (facts) => describeAudit(facts as AuditFacts) },
};

export async function auditPage(db: Db, page: number, pageSize: number) {
  const rows = await db
    .selectFrom('audit_log')
    .select(['id', 'at', 'actor_email', 'action', 'subject', 'ip', 'details'])
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const { n } = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const mapped: AuditRow[] = rows.map((r) => ({
    id: Number(r.id),
    at: new Date(r.at).toISOString(),
    actorEmail: r.actor_email,
    action: r.action,
    subject: r.subject,
    ip: r.ip,
    details: r.details,
  }));
  return { rows: mapped, total: n, page, pageSize };
}

export async function latestOutbox(db: Db, limit = 200): Promise<OutboxRow[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['id', 'created_at', 'to_address', 'subject', 'text_body'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    createdAt: new Date(r.created_at).toISOString(),
    to: r.to_address,
    subject: r.subject,
    text: r.text_body,
  }));
}

/** The Outbox screen's table: every mail with how its delivery went. */
export const outboxSource: TableSource<OutboxColumn> = {
  def: outboxTable,
  from: 'outbox o',
  expressions: {
    created: 'o.created_at',
    to: 'o.to_address',
    subject: 'o.subject',
    state: 'o.state',
    attachments: '(select count(*)::int from outbox_attachments a where a.outbox_id = o.id)',
    attempts: 'o.attempts',
    sentAt: 'o.sent_at',
    error: 'o.last_error',
    id: 'o.id',
  },
  searchable: ['to', 'subject'],
  tiebreak: 'o.id desc',
};

/** One mail with its attachments (their document ids, names and sizes; the bytes are downloaded apart). */
export async function outboxMessageById(db: Db, id: number): Promise<z.input<typeof outboxMessage> | null> {
  const mail = await db
    .selectFrom('outbox')
    .select([
      'id',
      'created_at',
      'to_address',
      'subject',
      'text_body',
      'state',
      'attempts',
      'sent_at',
      'last_error',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!mail) return null;
  const attachments = await db
    .selectFrom('outbox_attachments as a')
    .innerJoin('documents as d', 'd.id', 'a.document_id')
    .select(['d.id', 'd.filename', 'd.content_type', 'd.size_bytes'])
    .where('a.outbox_id', '=', id)
    .orderBy('a.position')
    .execute();
  return {
    id: mail.id,
    createdAt: mail.created_at,
    to: mail.to_address,
    subject: mail.subject,
    text: mail.text_body,
    state: mail.state,
    attempts: mail.attempts,
    sentAt: mail.sent_at,
    error: mail.last_error,
    attachments: attachments.map((a) => ({
      id: a.id,
      filename: a.filename,
      contentType: a.content_type,
      sizeBytes: a.size_bytes,
    })),
  };
}

/** Whether a document is an attachment of some mail: the outbox's download serves nothing else. */
export async function isMailAttachment(db: Db, documentId: number): Promise<boolean> {
  const row = await db
    .selectFrom('outbox_attachments')
    .select('document_id')
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function isoOptions(db: Db): Promise<IsoOption[]> {
  const rows = await db
    .selectFrom('partners')
    .select(['id', 'account_name'])
    .orderBy('account_name')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.account_name }));
}
