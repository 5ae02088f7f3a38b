/** One key factory per area; mutations invalidate through these so a key is never spelled twice. */
export const adminKeys = {
  all: ['admin'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  isos: () => [...adminKeys.all, 'isos'] as const,
  audit: () => [...adminKeys.all, 'audit'] as const,
  auditTable: (body: object) => [...adminKeys.audit(), 'table', body] as const,
  auditPreview: (body: object) => [...adminKeys.audit(), 'preview', body] as const,
  outbox: () => [...adminKeys.all, 'outbox'] as const,
};

/** Self Serve, Residual Self Serve and their saved reports. */
export const reportKeys = {
  all: ['reports'] as const,
  table: (table: string) => [...reportKeys.all, table] as const,
  page: (table: string, body: unknown) => [...reportKeys.table(table), 'page', body] as const,
  preview: (table: string, body: unknown) => [...reportKeys.table(table), 'preview', body] as const,
  savedNames: (table: string) => [...reportKeys.all, 'saved', table] as const,
};

/** Upload Data: each type's current rows. */
export const uploadKeys = {
  all: ['uploads'] as const,
  type: (type: string) => [...uploadKeys.all, type] as const,
  rows: (type: string, month: string | null) => [...uploadKeys.type(type), 'rows', { month }] as const,
  preview: (type: string, month: string | null) => [...uploadKeys.type(type), 'preview', { month }] as const,
};
