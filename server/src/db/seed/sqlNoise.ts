/**
 * Deterministic noise for set-based SQL: uniforms in [0, 1) taken from a 64-bit hash of a key, so the same seed
 * and key give the same number on PGlite and on PostgreSQL, however rows are ordered.
 *
 * The hash is PostgreSQL's `hashint8extended`, chained over the key's integers. It replaced an md5 of the key's
 * text, which cost about 4 µs a row (text conversions, md5, hex parsing) against about 0.5 µs: the daily activity
 * of the large scale is 17 million rows.
 */

/** A stream's starting value from the seed and the stream's name: FNV-1a, 64 bits, kept to 62 so it is positive. */
function streamStart(seed: number, stream: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(`${seed}:${stream}`)) {
    h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h & 0x3fffffffffffffffn;
}

/**
 * A 64-bit hash (SQL bigint expression) of a key: the seed, the stream's name and integer SQL expressions
 * (`days()` turns a date into one).
 */
export function noiseOf(seed: number, stream: string, ...keys: string[]): string {
  let h = `${streamStart(seed, stream)}::bigint`;
  for (const k of keys) h = `hashint8extended((${k})::bigint, ${h})`;
  return h;
}

/** A date expression as an integer: days since 2000-01-01. */
export function days(dateExpr: string): string {
  return `((${dateExpr})::date - date '2000-01-01')`;
}

/**
 * The n-th (1..4) uniform in [0, 1) of a hash expression: the low and high 32 bits of the hash, then of its
 * hash again for 3 and 4.
 */
export function uniform(hashExpr: string, n: 1 | 2 | 3 | 4): string {
  const h = n <= 2 ? hashExpr : `hashint8extended(${hashExpr}, 1)`;
  const bits = n % 2 === 1 ? `(${h} & 4294967295)` : `((${h} >> 32) & 4294967295)`;
  return `(${bits}::float8 / 4294967296.0)`;
}

/**
 * A lateral join that computes a key's hash once a row as `<alias>.h`, for `uniform('<alias>.h', n)`. Written
 * inline, each uniform (and each reference to a column computed from one, once PostgreSQL flattens the
 * subquery) evaluates the hash again. `offset 0` keeps the planner from inlining it back.
 */
export function noiseKey(hashExpr: string, alias: string): string {
  return `cross join lateral (select ${hashExpr} as h offset 0) ${alias}`;
}
