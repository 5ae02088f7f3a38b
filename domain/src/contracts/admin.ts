import { z } from 'zod';
import { CAPABILITIES, DEPARTMENTS } from '../access';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS } from '../audit';
import { endpoint } from '../endpoint';
import { type TableDef, tableEndpoints } from '../table';
import { rowId } from './common';

/** Administration calls added by PayDesk (users, audit log, outbox, ISO list). */
export const adminPaths = {
  users: '/api/app/users',
  updateUser: '/api/app/users/update',
  audit: '/api/app/audit',
  auditQuery: '/api/app/audit/query',
  auditExport: '/api/app/audit/export',
  outbox: '/api/app/outbox',
  isos: '/api/app/isos',
} as const;

export const userRow = z.object({
  id: z.number(),
  email: z.string(),
  department: z.enum(DEPARTMENTS),
  capabilities: z.array(z.enum(CAPABILITIES)),
  active: z.boolean(),
  locked: z.boolean(),
  lockedUntil: z.string().nullable(),
  isoId: z.number().nullable(),
  isoName: z.string().nullable(),
  lastSigninAt: z.string().nullable(),
  createdAt: z.string(),
});
export type UserRow = z.output<typeof userRow>;

export const updateUserAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  user: userRow,
});
export type UpdateUserAnswer = z.output<typeof updateUserAnswer>;

export const updateUserBody = z.strictObject({
  id: rowId,
  department: z.enum(DEPARTMENTS),
  capabilities: z.array(z.enum(CAPABILITIES)).max(CAPABILITIES.length),
  active: z.boolean(),
  /** false clears a lockout; true is refused (locking happens by failed sign-ins, or set active=false). */
  locked: z.literal(false).optional(),
  isoId: rowId.nullable(),
});
export type UpdateUserBody = z.input<typeof updateUserBody>;

/** The audit log on the table toolkit: newest first, filtered by time, user, action and account. */
export const auditTable = {
  columns: [
    { id: 'at', label: 'Time', type: 'datetime', filter: 'dateRange', sortable: true },
    { id: 'actor', label: 'User', type: 'text', filter: 'text', sortable: true },
    {
      id: 'action',
      label: 'Action',
      type: 'text',
      filter: 'select',
      options: AUDIT_ACTIONS,
      optionLabels: AUDIT_ACTION_LABELS,
      sortable: true,
    },
    { id: 'description', label: 'What happened', type: 'text' },
    { id: 'subject', label: 'Account', type: 'text', filter: 'text', sortable: true },
    { id: 'ip', label: 'IP', type: 'text', filter: 'text', sortable: true },
  ],
  pageSizes: [25, 50, 200],
  defaultPageSize: 50,
  defaultSort: [{ id: 'at', desc: true }],
} as const satisfies TableDef;

export type AuditColumn = (typeof auditTable.columns)[number]['id'];
/** `at` is an ISO timestamp, `action` the code (AUDIT_ACTIONS), `description` the entry in words. */
export type AuditTableRow = Record<AuditColumn, string | null>;

/** The spec-less page call kept for API clients: newest first, no filters. */
export const auditQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});

export const auditRow = z.object({
  id: z.number(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  subject: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditRow = z.output<typeof auditRow>;

export const auditPageAnswer = z.object({
  rows: z.array(auditRow),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const outboxRow = z.object({
  id: z.number(),
  createdAt: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
});
export type OutboxRow = z.output<typeof outboxRow>;

export const isoOption = z.object({ id: z.number(), name: z.string() });
export type IsoOption = z.output<typeof isoOption>;

export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** The administration calls (the audit log's table calls are the table toolkit's). */
export const adminEndpoints = {
  users: endpoint({
    method: 'GET',
    path: adminPaths.users,
    summary: 'Every user with department, capabilities, lock state and ISO',
    output: z.array(userRow),
  }),
  updateUser: endpoint({
    method: 'POST',
    path: adminPaths.updateUser,
    summary: "Changes a user's department, capabilities, ISO and active state, or clears a lockout",
    input: updateUserBody,
    output: updateUserAnswer,
  }),
  audit: endpoint({
    method: 'GET',
    path: adminPaths.audit,
    summary: 'A page of the audit log, newest first',
    input: auditQuery,
    output: auditPageAnswer,
  }),
  outbox: endpoint({
    method: 'GET',
    path: adminPaths.outbox,
    summary: 'The latest e-mails PayDesk sent',
    output: z.array(outboxRow),
  }),
  auditTable: tableEndpoints(
    'Audit log',
    { query: adminPaths.auditQuery, export: adminPaths.auditExport },
    {},
  ),
  isos: endpoint({
    method: 'GET',
    path: adminPaths.isos,
    summary: 'The ISOs (partners) visible to the caller',
    output: z.array(isoOption),
  }),
};
