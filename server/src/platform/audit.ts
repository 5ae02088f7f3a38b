import type { AuditAction } from '@paydesk/domain';
import type { Db } from '../db/connect';

export interface AuditEntry {
  actor: { id: number; email: string } | null;
  action: AuditAction;
  subject?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/** Records an action (AUDIT_ACTIONS in domain, which also says how the Audit log screen words it). */
export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_user_id: entry.actor?.id ?? null,
      actor_email: entry.actor?.email ?? null,
      action: entry.action,
      subject: entry.subject ?? null,
      ip: entry.ip ?? null,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}
