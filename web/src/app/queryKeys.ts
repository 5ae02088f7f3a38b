/** One key factory per area; mutations invalidate through these so a key is never spelled twice. */
export const adminKeys = {
  all: ['admin'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  isos: () => [...adminKeys.all, 'isos'] as const,
  audit: () => [...adminKeys.all, 'audit'] as const,
  auditPage: (page: number, pageSize: number) => [...adminKeys.audit(), { page, pageSize }] as const,
  outbox: () => [...adminKeys.all, 'outbox'] as const,
};
