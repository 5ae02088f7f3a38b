import { z } from 'zod';
import { CAPABILITIES, DEPARTMENTS } from '../access';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS } from '../audit';
import { endpoint, FILE_ANSWER, timestamp } from '../endpoint';
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
  outboxQuery: '/api/app/outbox/query',
  outboxExport: '/api/app/outbox/export',
  outboxMessage: '/api/app/outbox/message',
  outboxAttachment: '/api/app/outbox/attachment',
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

/**
 * How an e-mail's delivery went: queued or retrying, handed to the SMTP server, given up on (the server
 * refused it or the retries ran out), or kept in the local outbox because no SMTP server is configured.
 */
export const OUTBOX_STATES = ['pending', 'sent', 'failed', 'local'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];
export const OUTBOX_STATE_LABELS: Record<OutboxState, string> = {
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed',
  local: 'Kept locally',
};
/** What the Outbox screen says about a state beside one message. */
export const OUTBOX_STATE_DESCRIPTIONS: Record<OutboxState, string> = {
  pending: 'Waiting to be handed to the SMTP server; retried with growing pauses while it cannot be reached.',
  sent: 'Handed to the SMTP server.',
  failed: 'Not delivered: the SMTP server refused it, or could not be reached for hours of retries.',
  local: 'Kept in the local outbox (no SMTP server configured).',
};

/** The Outbox screen: every e-mail PayDesk wrote, newest first, with how its delivery went. */
export const outboxTable = {
  columns: [
    { id: 'created', label: 'Created', type: 'datetime', filter: 'dateRange', sortable: true },
    { id: 'to', label: 'To', type: 'text', filter: 'text', sortable: true },
    { id: 'subject', label: 'Subject', type: 'text', filter: 'text', sortable: true },
    {
      id: 'state',
      label: 'State',
      type: 'text',
      filter: 'select',
      options: OUTBOX_STATES,
      optionLabels: OUTBOX_STATE_LABELS,
      sortable: true,
    },
    {
      id: 'attachments',
      label: 'Attachments',
      type: 'integer',
      filter: 'range',
      min: 0,
      sortable: true,
      hidden: true,
    },
    { id: 'attempts', label: 'Attempts', type: 'integer', filter: 'range', min: 0, sortable: true },
    { id: 'sentAt', label: 'Sent at', type: 'datetime', filter: 'dateRange', sortable: true },
    { id: 'error', label: 'Error', type: 'text' },
    { id: 'id', label: 'Id', type: 'integer', hidden: true },
  ],
  pageSizes: [25, 50, 100],
  defaultPageSize: 25,
  defaultSort: [{ id: 'created', desc: true }],
} as const satisfies TableDef;
export type OutboxColumn = (typeof outboxTable.columns)[number]['id'];

/** A query-string id (`?id=12`). */
const queryId = z.object({ id: z.coerce.number({ error: 'An id is a whole number' }).pipe(rowId) }).strict();

export const outboxAttachment = z.object({
  id: z.number(),
  filename: z.string(),
  contentType: z.string(),
  sizeBytes: z.number(),
});
export type OutboxAttachment = z.output<typeof outboxAttachment>;

export const outboxMessage = z.object({
  id: z.number(),
  createdAt: timestamp,
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  state: z.enum(OUTBOX_STATES),
  attempts: z.number(),
  sentAt: timestamp.nullable(),
  error: z.string().nullable(),
  attachments: z.array(outboxAttachment),
});
export type OutboxMessage = z.output<typeof outboxMessage>;

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
    summary:
      'The latest 200 e-mails PayDesk wrote, newest first (kept for API clients; the screen uses the table)',
    output: z.array(outboxRow),
  }),
  outboxTable: tableEndpoints(
    'Outbox',
    { query: adminPaths.outboxQuery, export: adminPaths.outboxExport },
    {},
  ),
  outboxMessage: endpoint({
    method: 'GET',
    path: adminPaths.outboxMessage,
    summary: 'One e-mail: its text, how its delivery went and its attachments',
    input: queryId,
    output: outboxMessage,
  }),
  outboxAttachment: endpoint({
    method: 'GET',
    path: adminPaths.outboxAttachment,
    summary: "One attachment of an e-mail (the document's id), as a download",
    input: queryId,
    output: FILE_ANSWER,
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
