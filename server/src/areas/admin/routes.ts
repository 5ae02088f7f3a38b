import { adminEndpoints, partnerStaffProblem, type UserRow } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { audit } from '../../platform/audit';
import { readDocument, sendDocument } from '../../platform/documents';
import { badRequest, notFound } from '../../platform/errors';
import { type Deps, route } from '../../platform/http';
import { endAllSessions } from '../../platform/sessions';
import { tableRoutes } from '../../platform/tableRoutes';
import {
  auditPage,
  auditSource,
  countActiveAdmins,
  isMailAttachment,
  isoOptions,
  latestOutbox,
  listUsers,
  outboxMessageById,
  outboxSource,
} from './queries';

/** Administration added by PayDesk: users and their permissions, the audit log, the outbox, the ISO list. */
export function adminRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: adminEndpoints.users,
    access: 'manage_users',
    scope: 'staffOnly',
    handler: ({ db }) => listUsers(db),
  });

  route(app, deps, {
    endpoint: adminEndpoints.updateUser,
    access: 'manage_users',
    scope: 'staffOnly',
    handler: async ({ input, user, db, req }) => {
      const [before] = await listUsers(db, input.id);
      if (!before) throw notFound('No such user');
      if (input.id === user.id && (input.department !== 'admin' || !input.active)) {
        throw badRequest('You cannot remove your own admin access or deactivate yourself');
      }
      if (before.department === 'admin' && before.active && (input.department !== 'admin' || !input.active)) {
        if ((await countActiveAdmins(db)) <= 1) throw badRequest('PayDesk needs at least one active admin');
      }
      const partnerRule = partnerStaffProblem(input);
      if (partnerRule) throw badRequest(partnerRule);
      if (input.isoId !== null) {
        const partner = await db
          .selectFrom('partners')
          .select('id')
          .where('id', '=', input.isoId)
          .executeTakeFirst();
        if (!partner) throw badRequest('No such ISO');
      }
      // Capabilities go first: the database refuses binding a user who still holds some to an ISO.
      await db.deleteFrom('user_capabilities').where('user_id', '=', input.id).execute();
      await db
        .updateTable('users')
        .set({
          department: input.department,
          active: input.active,
          partner_id: input.isoId,
          ...(input.locked === false ? { locked_until: null, failed_signins: 0 } : {}),
        })
        .where('id', '=', input.id)
        .execute();
      const capabilities = [...new Set(input.capabilities)];
      if (capabilities.length > 0) {
        await db
          .insertInto('user_capabilities')
          .values(capabilities.map((capability) => ({ user_id: input.id, capability })))
          .execute();
      }
      if (!input.active) await endAllSessions(db, input.id);
      const [after] = await listUsers(db, input.id);
      if (!after) throw notFound('No such user');
      await audit(db, {
        actor: { id: user.id, email: user.email },
        action: 'user.update',
        subject: after.email,
        ip: req.ip,
        details: changes(before, after),
      });
      return { success: true as const, message: `Saved ${after.email}`, user: after };
    },
  });

  route(app, deps, {
    endpoint: adminEndpoints.audit,
    access: 'manage_users',
    scope: 'staffOnly',
    handler: ({ input, db }) => auditPage(db, input.page, input.pageSize),
  });

  tableRoutes(app, deps, {
    access: 'manage_users',
    scope: 'staffOnly',
    endpoints: adminEndpoints.auditTable,
    source: () => auditSource,
    file: () => ({ name: `Audit-log-${new Date().toISOString().slice(0, 10)}.xlsx`, sheet: 'Audit log' }),
  });

  route(app, deps, {
    endpoint: adminEndpoints.outbox,
    access: 'read_outbox',
    scope: 'staffOnly',
    handler: ({ db }) => latestOutbox(db),
  });

  tableRoutes(app, deps, {
    access: 'read_outbox',
    scope: 'staffOnly',
    endpoints: adminEndpoints.outboxTable,
    source: () => outboxSource,
    file: () => ({ name: `Outbox-${new Date().toISOString().slice(0, 10)}.xlsx`, sheet: 'Outbox' }),
  });

  route(app, deps, {
    endpoint: adminEndpoints.outboxMessage,
    access: 'read_outbox',
    scope: 'staffOnly',
    handler: async ({ input, db }) => {
      const mail = await outboxMessageById(db, input.id);
      if (!mail) throw notFound('No such e-mail');
      return mail;
    },
  });

  route(app, deps, {
    endpoint: adminEndpoints.outboxAttachment,
    access: 'read_outbox',
    scope: 'staffOnly',
    handler: async ({ input, db, reply, afterCommit }) => {
      // Only mail attachments: the outbox permission opens no other document.
      if (!(await isMailAttachment(db, input.id))) throw notFound('No such attachment');
      const document = await readDocument(db, input.id);
      afterCommit(async () => {
        sendDocument(reply, document);
      });
    },
  });

  route(app, deps, {
    endpoint: adminEndpoints.isos,
    access: 'session',
    scope: 'iso',
    handler: ({ db }) => isoOptions(db),
  });
}

/** What an update changed, as { field: [before, after] }, for the audit log. */
function changes(before: UserRow, after: UserRow): Record<string, unknown> {
  const fields = ['department', 'capabilities', 'active', 'locked', 'isoName'] as const;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (JSON.stringify(before[f]) !== JSON.stringify(after[f])) out[f] = [before[f], after[f]];
  }
  return out;
}
