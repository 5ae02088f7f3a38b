/** The sales area's query keys (dashboard, leaderboard, ISO performance): one call and its body per key. */
export const salesKeys = {
  all: ['sales'] as const,
  call: (path: string, body: unknown = null) => [...salesKeys.all, path, body] as const,
  isoTable: (body: unknown) => [...salesKeys.all, 'isoTable', body] as const,
  isoPreview: (body: unknown) => [...salesKeys.all, 'isoPreview', body] as const,
};
