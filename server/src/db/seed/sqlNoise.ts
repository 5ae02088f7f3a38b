/**
 * Deterministic noise for set-based SQL: four uniforms in [0, 1) taken from the md5 of a key, so the same
 * seed and key give the same number on PGlite and on PostgreSQL, however rows are ordered.
 */
export function md5Of(seed: number, ...keys: string[]): string {
  return `md5('${seed}:' || ${keys.join(" || ':' || ")})`;
}

/** The n-th (1..4) uniform of an md5 text expression. */
export function uniform(md5Expr: string, n: 1 | 2 | 3 | 4): string {
  return `((('x' || substr(${md5Expr}, ${(n - 1) * 8 + 1}, 8))::bit(32)::int)::float8 / 4294967296.0 + 0.5)`;
}
