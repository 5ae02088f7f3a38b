import type { Db } from '../db/connect';

export interface AuditEntry {
  actor: { id: number; email: string } | null;
  action: string;
  subject?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Audit actions: signin.success, signin.failure, signin.locked, signout, password.change,
 * password.reset_request, password.reset, user.register, user.update.
 */
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
