import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';

/**
 * A gzip answer put together from pieces compressed one by one, as pigz does: each piece is deflated on its own
 * (a fresh compressor, so nothing in it refers back to an earlier piece) and ended with a sync flush (an empty stored
 * block that leaves the stream open on a byte boundary). The pieces' deflate data, one after another and closed by
 * a final empty block, is one valid deflate stream of the pieces' text in that order; the gzip header, and the
 * CRC-32 and length of the whole text (the pieces' CRCs combined), make it a gzip member (RFC 1952). A kept answer
 * made of parts (answerCache.ts, keptArrayInParts) then compresses only the parts that changed.
 */
export interface Piece {
  text: string;
  /** Its UTF-8 bytes' length and CRC-32. */
  length: number;
  crc: number;
  /** Its deflate data, ended by a sync flush (not a final block). */
  deflated: Promise<Buffer>;
  /**
   * Its UTF-8 bytes, where the piece keeps them (bytesPiece: a large piece written as bytes): an answer's plain body
   * is then put together from them (utf8Of) rather than its whole text encoded again.
   */
  bytes?: Buffer;
}

const deflateRawAsync = promisify(deflateRaw);
const options = { level: constants.Z_BEST_SPEED, finishFlush: constants.Z_SYNC_FLUSH };

/**
 * Below this size a piece is deflated at once, on this thread; larger ones on zlib's thread pool. Reaching the pool
 * costs a stream and a round trip per piece, more than the work for a small one: the Activation tab's 76 parts (one
 * per approval day) took 14–22 ms on the pool and 2 ms here at the demo scale (53 KB in all), 18–25 ms and 4–15 ms at
 * the large scale (1.4 MB); twelve pieces of 530 KB were quicker on the pool (docs/bench.md).
 */
const DEFLATE_HERE_BELOW = 64 * 1024;

/** A piece's deflate data: at its fastest level, ended by a sync flush. */
const deflatedOf = (bytes: Buffer): Promise<Buffer> =>
  bytes.length < DEFLATE_HERE_BELOW
    ? Promise.resolve(deflateRawSync(bytes, options))
    : deflateRawAsync(bytes, options);

/** A piece compressed at zlib's fastest level (as platform/http.ts compresses kept answers). */
export function piece(text: string): Piece {
  const bytes = Buffer.from(text);
  return { text, length: bytes.length, crc: crc32(bytes), deflated: deflatedOf(bytes) };
}

/**
 * A piece whose bytes, CRC-32 and deflate data are made only when first read, once: a part of an answer that most
 * askers of the moment may take uncompressed, so nothing is deflated on the thread pool until a client that accepts
 * gzip asks.
 */
export function lazyPiece(text: string): Piece {
  let made: Piece | null = null;
  const get = () => {
    made ??= piece(text);
    return made;
  };
  let length: number | null = null;
  return {
    text,
    get length() {
      length ??= made?.length ?? Buffer.byteLength(text);
      return length;
    },
    get crc() {
      return get().crc;
    },
    get deflated() {
      return get().deflated;
    },
  };
}

/**
 * A piece written as UTF-8 bytes (ISO analytics' chart, areas/bi/queries.ts: 10 MB at the xl scale), kept as them:
 * its text is decoded, and its CRC-32 and deflate data made, only when first read, once. A client that does not
 * accept gzip is sent the bytes themselves (utf8Of), so the chart is neither decoded nor encoded again.
 */
export function bytesPiece(bytes: Buffer): Piece {
  let text: string | null = null;
  let crc: number | null = null;
  let deflated: Promise<Buffer> | null = null;
  return {
    bytes,
    length: bytes.length,
    get text() {
      text ??= bytes.toString('utf8');
      return text;
    },
    get crc() {
      crc ??= crc32(bytes);
      return crc;
    },
    get deflated() {
      deflated ??= deflatedOf(bytes);
      return deflated;
    },
  };
}

/** The UTF-8 bytes of the pieces' text, in order: the bytes a piece keeps, the others' encoded. */
export const utf8Of = (pieces: readonly Piece[]): Buffer =>
  Buffer.concat(pieces.map((p) => p.bytes ?? Buffer.from(p.text)));

/** The pieces' text, in order. */
export const textOf = (pieces: readonly Piece[]): string => pieces.map((p) => p.text).join('');

/** A small piece compressed at once (the brackets and commas an answer is put together with). */
export function constantPiece(text: string): Piece {
  const bytes = Buffer.from(text);
  return {
    text,
    length: bytes.length,
    crc: crc32(bytes),
    deflated: Promise.resolve(deflateRawSync(bytes, options)),
  };
}

// The final block: a fresh compressor finishing with nothing to compress writes an empty final block.
const LAST_BLOCK = deflateRawSync(Buffer.alloc(0), { level: constants.Z_BEST_SPEED });
// ID1 ID2, CM = deflate, no flags, no time, no extra flags, OS unknown.
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);

/** The gzip member of the pieces' text, in order. */
export async function gzipOf(pieces: readonly Piece[]): Promise<Buffer> {
  const bodies = await Promise.all(pieces.map((p) => p.deflated));
  let crc = 0;
  let length = 0;
  for (const p of pieces) {
    crc = crc32Combine(crc, p.crc, p.length);
    length += p.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  return Buffer.concat([HEADER, ...bodies, LAST_BLOCK, trailer]);
}

/** mat × vec over GF(2), `mat` a 32×32 bit matrix by columns. */
function times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0, v = vec >>> 0; v !== 0; i++, v >>>= 1) if (v & 1) sum ^= mat[i] as number;
  return sum >>> 0;
}

function squared(mat: Uint32Array): Uint32Array {
  const out = new Uint32Array(32);
  for (let n = 0; n < 32; n++) out[n] = times(mat, mat[n] as number);
  return out;
}

/**
 * ZEROS[k] carries a CRC-32 through 2^k zero bytes: the operator for one zero bit (the polynomial, reflected, then
 * a shift) squared three times is one zero byte's, and each square doubles it.
 */
const ZEROS: Uint32Array[] = (() => {
  const bit = new Uint32Array(32);
  bit[0] = 0xedb88320;
  for (let n = 1; n < 32; n++) bit[n] = 1 << (n - 1);
  const out = [squared(squared(squared(bit)))];
  for (let k = 1; k < 53; k++) out.push(squared(out[k - 1] as Uint32Array));
  return out;
})();

/**
 * The CRC-32 of A followed by B from the CRC-32 of each and B's length (as zlib's crc32_combine): A's CRC carried
 * through B's length of zero bytes, one precomputed operator per one bit of the length, then B's CRC added.
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  let crc = crcA >>> 0;
  for (let k = 0, len = lengthB; len > 0; k++, len = Math.floor(len / 2))
    if (len % 2 === 1) crc = times(ZEROS[k] as Uint32Array, crc);
  return (crc ^ crcB) >>> 0;
}
