import { z } from 'zod';
import { CAPABILITIES, type Capability, DEPARTMENTS, type Department } from '../access';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS } from '../audit';
import type { TableDef } from '../table';
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

export interface UserRow {
  id: number;
  email: string;
  department: Department;
  capabilities: Capability[];
  active: boolean;
  locked: boolean;
  lockedUntil: string | null;
  isoId: number | null;
  isoName: string | null;
  lastSigninAt: string | null;
  createdAt: string;
}

export interface UpdateUserAnswer {
  success: true;
  message: string;
  user: UserRow;
}

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

export interface AuditRow {
  id: number;
  at: string;
  actorEmail: string | null;
  action: string;
  subject: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

export interface OutboxRow {
  id: number;
  createdAt: string;
  to: string;
  subject: string;
  text: string;
}

export interface IsoOption {
  id: number;
  name: string;
}

export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
}
