import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { constantPiece, gzipOf, type Piece, piece, textOf } from './gzipPieces';
import { gunzipText, gzipFast, JsonText, type KeptEncodings } from './http';

/**
 * Large answers that change rarely (the whole partner directory, the sandbox CRM's lead list), kept as the JSON text last written for each
 * scope and answer version. The version is a counter in `answer_versions` that a statement-level trigger raises
 * in every transaction writing a table the answer reads (migration 2026_11_23_0005). The request reads it in its
 * own transaction, so it is the version of the snapshot the request sees: an entry written for that version is
 * exactly what the query would answer now, and a write by another instance on the same database is seen at once.
 *
 * Entries are per database (tests run many in one process) and per scope key (the ISO of an ISO-bound user, or
 * everyone); a bounded number of entries and of size is kept, the least recently used dropped first. Some answers
 * are large (ISO analytics of every group: 4 MB at the large scale, 12 MB at xl; a month of PCI billing at xl:
 * 146,666 rows, 33 MB), so the size is the bound that matters. An answer of up to half the bound is kept as its
 * text or as the pieces it was put together from (its size: its characters, or its pieces' bytes); a larger one is
 * kept gzip-compressed only (its size: the compressed bytes, about a tenth), sent as it is to clients that accept
 * gzip and unpacked for each one that does not. An answer whose kept form would still be larger than half the bound
 * is sent but not kept.
 */
const MAX_ENTRIES = 64;
export const MAX_CACHED_SIZE = 32_000_000;
/** The longest answer kept as its text; a longer one is kept compressed. */
export const KEEP_TEXT_UP_TO = MAX_CACHED_SIZE / 2;
interface Entry {
  version: string;
  /** Null when the answer is kept as pieces (encoded.pieces) or compressed only (encoded.gzip). */
  text: string | null;
  encoded: KeptEncodings;
  /** What the entry counts against the bound: its text's characters (its pieces' bytes), or its compressed bytes. */
  size: number;
}
const caches = new WeakMap<Db, Map<string, Entry>>();

/** The cache of `database` among `all`, made on first use (also for a module's own kept values). */
export function cacheFor<V>(all: WeakMap<Db, Map<string, V>>, database: Db): Map<string, V> {
  let cache = all.get(database);
  if (!cache) {
    cache = new Map();
    all.set(database, cache);
  }
  return cache;
}

/** Drops the least recently used entries until the cache is within both bounds. */
function trim(cache: Map<string, Entry>) {
  let size = 0;
  for (const entry of cache.values()) size += entry.size;
  for (const [key, entry] of cache) {
    if (cache.size <= MAX_ENTRIES && size <= MAX_CACHED_SIZE) break;
    cache.delete(key);
    size -= entry.size;
  }
}

/**
 * partners: the partner directory; pci_billing: a month's PCI billing and commissions (GetBilling, GetCommissions);
 * leads: the CRM lead list (GetLeads); iso_partners: the ISO partners dashboard's directory and statuses per date
 * ranges (GetPartners, GetPartnersStatus and the ISO performance table); bi: ISO analytics and the executive ISO
 * list (isoanalyticsdata, GetAllInformation); bonus: a bonus window's rows (GetBonus) and the matches (GetMatches);
 * activation: the Activation tab's list (GetActivation), in parts by approval day; fin_options: the financial
 * dashboard's filter groups (finoptions); fin_mids: its list of every MID and DBA, in parts by DBA;
 * approvals: the year's approvals to a day (approvedYTD_Details); pci_historic: the older client's whole Old
 * Merchants list (GetHistoricMerchants); selfserve_counts: a Self Serve page's count and totals, per month
 * (keptSmall).
 */
export type AnswerName =
  | 'partners'
  | 'pci_billing'
  | 'leads'
  | 'iso_partners'
  | 'bi'
  | 'bonus'
  | 'activation'
  | 'fin_options'
  | 'fin_mids'
  | 'approvals'
  | 'pci_historic'
  | 'selfserve_counts'
  | 'residual_counts';

/**
 * The key an answer is kept under: the scope its rows were read in (row-level security gives an ISO-bound user
 * their ISO's rows, staff every ISO's), then what was asked. Every kept answer's key starts with it, so one scope's
 * answer is never sent to another.
 */
export const scopeKey = (user: { isoId: number | null } | null, ...question: (string | number)[]): string =>
  [user?.isoId ?? 'staff', ...question].join(':');

/**
 * An answer as the pieces it is put together from (their texts, in order, are its text): some kept from earlier
 * answers with their deflate data or their bytes, so the answer's gzip bytes, or its plain ones, are put together
 * from them (gzipPieces.ts) rather than the whole text joined, encoded or compressed again.
 */
export interface PiecedText {
  pieces: readonly Piece[];
}

/**
 * `database` is the application's Db (the cache's key), `trx` the request's transaction. `byDay`: the answer also
 * depends on the day (a merchant closing tomorrow is open today), so an entry is kept for the database's current
 * day only.
 */
export async function cachedAnswer(
  database: Db,
  trx: Db,
  name: AnswerName,
  scopeKey: string,
  compute: () => Promise<string | PiecedText>,
  options: { byDay?: boolean } = {},
): Promise<string> {
  const entry = await keptEntry(database, trx, name, scopeKey, compute, options);
  if (entry.text !== null) return entry.text;
  return entry.encoded.pieces
    ? textOf(entry.encoded.pieces)
    : gunzipText(entry.encoded.gzip as Promise<Buffer>);
}

/**
 * As cachedAnswer, as the answer to send: its bytes (UTF-8, and gzip-compressed for clients that accept it) are
 * made once and kept with it (platform/http.ts, jsonBody).
 */
export async function keptJson<T>(...question: Parameters<typeof cachedAnswer>): Promise<JsonText<T>> {
  const entry = await keptEntry(...question);
  return new JsonText<T>(entry.text, entry.encoded);
}

async function keptEntry(
  database: Db,
  trx: Db,
  name: AnswerName,
  scopeKey: string,
  compute: () => Promise<string | PiecedText>,
  { byDay = false }: { byDay?: boolean } = {},
): Promise<Entry> {
  const { rows } = await sql<{ version: string }>`
    select version::text || ${byDay ? sql`':' || current_date::text` : sql`''`} as version
    from answer_versions where name = ${name}`.execute(trx);
  const version = rows[0]?.version;
  if (version === undefined) throw new Error(`No answer version for ${name}`);
  const cache = cacheFor(caches, database);
  const key = `${name}:${scopeKey}`;
  const hit = cache.get(key);
  if (hit?.version === version) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const made = await compute();
  const text = typeof made === 'string' ? made : null;
  const pieces = typeof made === 'string' ? undefined : made.pieces;
  const length = text?.length ?? (pieces ?? []).reduce((n, p) => n + p.length, 0);
  let entry: Entry;
  if (length <= KEEP_TEXT_UP_TO) entry = { version, text, encoded: pieces ? { pieces } : {}, size: length };
  else {
    const gzip = await (pieces ? gzipOf(pieces) : gzipFast(text as string));
    entry = {
      version,
      text: null,
      encoded: { gzip: Promise.resolve(gzip), compressedOnly: true },
      size: gzip.length,
    };
  }
  cache.delete(key);
  if (entry.size <= MAX_CACHED_SIZE / 2) cache.set(key, entry);
  trim(cache);
  // This request has the text (or the pieces) at hand, kept or not.
  if (pieces)
    return entry.encoded.pieces
      ? entry
      : { ...entry, text: null, encoded: { gzip: entry.encoded.gzip, pieces } };
  return entry.text === text ? entry : { ...entry, text };
}

/** How many answers are kept for a database, their size against the bound, and how many only compressed (tests). */
export function cacheSize(database: Db): { entries: number; size: number; compressed: number } {
  const cache = caches.get(database);
  let size = 0;
  let compressed = 0;
  for (const entry of cache?.values() ?? []) {
    size += entry.size;
    if (entry.text === null && !entry.encoded.pieces) compressed++;
  }
  return { entries: cache?.size ?? 0, size, compressed };
}

/**
 * The parts kept for one answer and scope (keptArrayInParts), in one entry of the cache: its size is theirs.
 * Each part has the version it was computed for.
 */
interface PartsEntry extends Entry {
  parts: Map<string, { version: string; piece: Piece }>;
  /** The pieces of a frame other than the brackets (keptArrayInParts' `frame`), as last made. */
  frame?: { open?: Piece; close?: Piece };
}

/** The whole answer made of parts, with the frame it was made in. */
interface WholeEntry extends Entry {
  open: string;
  close: string;
}

const OPEN = constantPiece('[');
const COMMA = constantPiece(',');
const CLOSE = constantPiece(']');

/**
 * A part of an answer kept in parts: its key (what it holds, for the scope) and the range of version names it is
 * kept under, `first` to `last` (names compared by their characters' codes, as JavaScript and collation "C" compare
 * them: e.g. the days of a month).
 */
export interface AnswerPart {
  key: string;
  first: string;
  last: string;
}

/**
 * A kept answer that is a JSON array made of parts (the year's approvals: a part per earlier month and per day of
 * the last month), each part kept on its own. Versions are kept per name in `answer_part_versions` (the approvals':
 * one per day, raised by triggers for the days a write touches), and a part is checked against the versions of its
 * range of names and the answer's own (`answer_versions`, raised by a truncate). A write to one day leaves the other
 * parts kept: the first ask after it computes that day's part alone, and compresses that part alone (gzipPieces.ts
 * puts the gzip answer together from the parts' compressed pieces). The whole answer is kept as well, compressed.
 *
 * `parts` are in the array's order. `compute` answers the text of the given parts' elements, separated by commas
 * and without brackets (a part with no element may be left out). `question` is what the whole answer is kept
 * under, beside the scope. `frame`: the text before the first element and after the last, the brackets unless
 * given (the financial filter values are an object whose last member is the array of MIDs: its other members,
 * kept on their own, are the frame); the whole answer is made again when its frame's text changes.
 */
export async function keptArrayInParts<T>(
  database: Db,
  trx: Db,
  name: AnswerName,
  scope: string,
  question: string,
  parts: readonly AnswerPart[],
  compute: (stale: AnswerPart[]) => Promise<Map<string, string>>,
  frame: { open: string; close: string } = { open: '[', close: ']' },
): Promise<JsonText<T>> {
  const first = parts.reduce((a, p) => (p.first < a ? p.first : a), parts[0]?.first ?? '');
  const last = parts.reduce((a, p) => (p.last > a ? p.last : a), '');
  const { rows } = await sql<{ part: string | null; version: string }>`
    select null as part, version::text as version from answer_versions where name = ${name}
    union all
    select part, version::text from answer_part_versions
    where name = ${name} and part collate "C" >= ${first} and part collate "C" <= ${last}`.execute(trx);
  const global = rows.find((r) => r.part === null)?.version;
  if (global === undefined) throw new Error(`No answer version for ${name}`);
  // A part's version: the answer's, and the sum of its names' (each only ever rises), found in the names sorted with
  // their running sums by two binary searches.
  const named = rows
    .filter((r): r is { part: string; version: string } => r.part !== null)
    .sort((x, y) => (x.part < y.part ? -1 : x.part > y.part ? 1 : 0));
  const running = [0];
  for (const r of named) running.push((running.at(-1) as number) + Number(r.version));
  // The index of the first name not before `name` (after = false) or after it (after = true).
  const bound = (name: string, after: boolean) => {
    let lo = 0;
    let hi = named.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const at = (named[mid] as { part: string }).part;
      if (at < name || (after && at === name)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const versionOf = new Map(
    parts.map((p) => {
      const sum = (running[bound(p.last, true)] as number) - (running[bound(p.first, false)] as number);
      return [p.key, `${global}:${sum}`];
    }),
  );
  const kept = cacheFor(caches, database);
  const use = (key: string): Entry | undefined => {
    const hit = kept.get(key);
    if (hit) {
      kept.delete(key);
      kept.set(key, hit);
    }
    return hit;
  };
  const wholeKey = `${name}:${scope}:${question}`;
  const version = parts.map((p) => `${p.key}=${versionOf.get(p.key)}`).join(',');
  const whole = use(wholeKey) as WholeEntry | undefined;
  if (whole?.version === version && whole.open === frame.open && whole.close === frame.close)
    return new JsonText<T>(whole.text, whole.encoded);

  const partsKey = `${name}#parts:${scope}`;
  const held: PartsEntry = (use(partsKey) as PartsEntry | undefined) ?? {
    version: '',
    text: null,
    encoded: {},
    size: 0,
    parts: new Map(),
  };
  // The pieces this answer is made of, taken now: another request may replace a part (for its own snapshot's
  // version) while this one computes.
  const mine = new Map<string, Piece>();
  const stale: AnswerPart[] = [];
  for (const p of parts) {
    const part = held.parts.get(p.key);
    if (part && part.version === versionOf.get(p.key)) mine.set(p.key, part.piece);
    else stale.push(p);
  }
  if (stale.length > 0) {
    const texts = await compute(stale);
    for (const p of stale) {
      const before = held.parts.get(p.key);
      if (before) held.size -= before.piece.text.length;
      const text = texts.get(p.key) ?? '';
      const made = piece(text);
      mine.set(p.key, made);
      held.parts.set(p.key, { version: versionOf.get(p.key) as string, piece: made });
      held.size += text.length;
    }
    // Parts no longer asked for (the days of a month now kept as one part, another day's or year's) are dropped
    // once the parts outgrow a quarter of the bound, so a server running for months keeps what is asked now.
    if (held.size > MAX_CACHED_SIZE / 4) {
      for (const [key, part] of held.parts) {
        if (mine.has(key)) continue;
        held.parts.delete(key);
        held.size -= part.piece.text.length;
      }
    }
    kept.delete(partsKey);
    if (held.size <= MAX_CACHED_SIZE / 2) kept.set(partsKey, held);
  }
  const filled = parts.map((p) => mine.get(p.key) as Piece).filter((x) => x.length > 0);
  // The frame's pieces: the brackets, or kept with the parts while the same text frames them.
  const framed = (text: string, which: 'open' | 'close', bracket: Piece): Piece => {
    if (text === bracket.text) return bracket;
    const kept = held.frame?.[which];
    if (kept?.text === text) return kept;
    const made = piece(text);
    held.frame = { ...(held.frame ?? {}), [which]: made };
    return made;
  };
  const pieces = [
    framed(frame.open, 'open', OPEN),
    ...filled.flatMap((x, i) => (i === 0 ? [x] : [COMMA, x])),
    framed(frame.close, 'close', CLOSE),
  ];
  // Kept compressed only: the gzip answer is the parts' pieces put together, and the whole text (9 MB at the xl
  // scale) is made only for a client that does not accept gzip (platform/http.ts, jsonBody).
  const gzip = gzipOf(pieces);
  const entry: WholeEntry = {
    version,
    open: frame.open,
    close: frame.close,
    text: null,
    encoded: { gzip, compressedOnly: true },
    size: pieces.reduce((n, x) => n + x.length, 0),
  };
  gzip.then(
    (bytes) => {
      entry.size = bytes.length;
    },
    () => kept.delete(wholeKey),
  );
  kept.delete(wholeKey);
  if (entry.size <= MAX_CACHED_SIZE / 2) kept.set(wholeKey, entry);
  trim(kept);
  return new JsonText<T>(null, entry.encoded);
}

/**
 * Small answers of many questions (a table page's count and totals for each filter asked: platform/tableQuery.ts),
 * kept apart from the large ones so that a user trying filter after filter never pushes a large answer out. Each is
 * kept for the answer's version and its part's in `answer_part_versions` (e.g. a month's, raised by triggers for the
 * months a statement writes, migration 2026_12_14_0010), read in the request's own transaction as keptEntry reads
 * them: an entry is exactly what the question would answer now. At most MAX_SMALL_ENTRIES of at most
 * MAX_SMALL_SIZE characters each, the least recently used dropped first; a longer answer is not kept.
 */
const MAX_SMALL_ENTRIES = 2_000;
export const MAX_SMALL_SIZE = 4_096;
const smallCaches = new WeakMap<Db, Map<string, { version: string; text: string }>>();

export async function keptSmall(
  database: Db,
  trx: Db,
  name: AnswerName,
  part: string,
  key: string,
  compute: () => Promise<string>,
): Promise<string> {
  const { rows } = await sql<{ version: string }>`
    select v.version::text || ':' || coalesce((select p.version from answer_part_versions p
      where p.name = ${name} and p.part = ${part}), 0)::text as version
    from answer_versions v where v.name = ${name}`.execute(trx);
  const version = rows[0]?.version;
  if (version === undefined) throw new Error(`No answer version for ${name}`);
  const cache = cacheFor(smallCaches, database);
  const entryKey = `${name}:${part}:${key}`;
  const hit = cache.get(entryKey);
  cache.delete(entryKey);
  if (hit?.version === version) {
    cache.set(entryKey, hit);
    return hit.text;
  }
  const text = await compute();
  if (text.length <= MAX_SMALL_SIZE) {
    cache.set(entryKey, { version, text });
    for (const oldest of cache.keys()) {
      if (cache.size <= MAX_SMALL_ENTRIES) break;
      cache.delete(oldest);
    }
  }
  return text;
}

/** How many small answers are kept for a database (tests). */
export const smallCacheEntries = (database: Db): number => smallCaches.get(database)?.size ?? 0;
