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

/**
 * A lateral join that computes an md5 key once a row as `<alias>.h`, for `uniform('<alias>.h', n)`. Written
 * inline, each uniform (and each reference to a column computed from one, once PostgreSQL flattens the
 * subquery) evaluates the md5 again: the daily activity took a dozen md5s a row. `offset 0` keeps the planner
 * from inlining it back.
 */
export function noiseKey(md5Expr: string, alias: string): string {
  return `cross join lateral (select ${md5Expr} as h offset 0) ${alias}`;
}
