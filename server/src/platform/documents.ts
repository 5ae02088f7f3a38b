import { createHash } from 'node:crypto';
import { XLSX_MIME } from '@paydesk/domain';
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/connect';
import { badRequest, notFound } from './errors';
import { decryptPii, encryptPii } from './pii';

/**
 * Documents (uploaded lead PDFs, underwriting check results, generated reports) are kept in the `documents`
 * table, not on disk: one backup holds everything, and row-level security applies to them as to the business
 * data (a document with a partner_id belongs to that ISO; one without is internal and partner staff never see
 * it). What a file is is decided by its bytes, never by its name or the type the sender declared.
 *
 * There is no public URL for a document. A download goes only through a route declared with route()
 * (platform/http.ts), whose access and scope say who may call it; the route reads the document in its
 * transaction with readDocument (so the caller's ISO scope applies) and answers with sendDocument.
 */

const MiB = 1024 * 1024;

/**
 * The types a document may have, the largest of each, and how its first and last bytes prove it. The limits
 * are per file: a scanned merchant application runs to a few MB as a PDF, a generated report workbook can be
 * larger, and a photo of an ID or a cheque needs no more than 5 MB.
 */
const DOCUMENT_TYPES = {
  'application/pdf': { label: 'PDF', extensions: ['.pdf'], maxBytes: 10 * MiB, matches: isPdf },
  [XLSX_MIME]: { label: 'XLSX', extensions: ['.xlsx'], maxBytes: 20 * MiB, matches: isZip },
  'image/png': { label: 'PNG', extensions: ['.png'], maxBytes: 5 * MiB, matches: isPng },
  'image/jpeg': { label: 'JPEG', extensions: ['.jpg', '.jpeg'], maxBytes: 5 * MiB, matches: isJpeg },
} as const satisfies Record<string, DocumentType>;

interface DocumentType {
  label: string;
  extensions: readonly string[];
  maxBytes: number;
  matches: (bytes: Uint8Array) => boolean;
}

export type DocumentContentType = keyof typeof DOCUMENT_TYPES;

const MAX_FILENAME_LENGTH = 200;

export interface DocumentInfo {
  id: number;
  ownerUserId: number;
  partnerId: number | null;
  kind: string;
  filename: string;
  contentType: string;
  /** Size and hash of the stored bytes: of the ciphertext for an encrypted document. */
  sizeBytes: number;
  sha256: string;
  createdAt: Date;
}

export interface StoredDocument extends DocumentInfo {
  content: Buffer;
}

export interface NewDocument {
  /** The user who stored it. */
  owner: number;
  /** The ISO it belongs to; null for an internal document, which partner staff never see. */
  partnerId: number | null;
  /** What it is, in the area's words (e.g. `lead_application`); lower-case letters, digits and _. */
  kind: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
  /**
   * Keep the bytes encrypted with the PII key (AES-256-GCM, platform/pii.ts), for a file that holds personal
   * data; readDocument decrypts it, so only a route allowed to read the document ever sees it in clear.
   */
  encrypted?: boolean;
}

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

/** `%PDF-` at the start and `%%EOF` in the last KB (writers may add a line end or a few bytes after it). */
function isPdf(bytes: Uint8Array): boolean {
  if (!startsWith(bytes, [...Buffer.from('%PDF-')])) return false;
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024)));
  return tail.includes('%%EOF');
}

/** An .xlsx is a zip: its first local file header. */
function isZip(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]);
}

function isPng(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
}

function isJpeg(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0xff, 0xd8, 0xff]);
}

function documentType(contentType: string): DocumentType {
  const type = (DOCUMENT_TYPES as Record<string, DocumentType>)[contentType.toLowerCase()];
  if (!type) {
    const labels = Object.values(DOCUMENT_TYPES).map((t) => t.label);
    throw badRequest(`Only ${labels.slice(0, -1).join(', ')} or ${labels.at(-1)} files can be stored`);
  }
  return type;
}

/**
 * The type a file's name claims, for files that come with a name only (an e-mail attachment): storeDocument
 * then checks the bytes against it, so a renamed file is still refused.
 */
export function contentTypeOfFilename(filename: string): DocumentContentType {
  const lower = filename.toLowerCase();
  const found = (Object.entries(DOCUMENT_TYPES) as [DocumentContentType, DocumentType][]).find(([, type]) =>
    type.extensions.some((e) => lower.endsWith(e)),
  );
  if (!found) {
    const extensions = Object.values(DOCUMENT_TYPES).flatMap((t) => t.extensions);
    throw badRequest(`${filename}: only ${extensions.join(', ')} files can be attached`);
  }
  return found[0];
}

/**
 * The name a file is stored and downloaded under: its last path part only, without control or bidirectional
 * formatting characters (which can disguise an extension), at most 200 characters, ending in its type's
 * extension so a saved download opens as what it is.
 */
export function cleanFilename(given: string, extensions: readonly string[]): string {
  const lastPart = given.split(/[/\\]/).at(-1) ?? '';
  const name = lastPart
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  const kept = extensions.find((e) => name.toLowerCase().endsWith(e));
  const extension = kept ? name.slice(name.length - kept.length) : (extensions[0] ?? '');
  const stem = [...(kept ? name.slice(0, name.length - kept.length) : name)];
  const shortened = stem
    .slice(0, MAX_FILENAME_LENGTH - extension.length)
    .join('')
    .trimEnd();
  return `${shortened || 'document'}${extension}`;
}

/** Checks a file by its bytes: a file that is not what it claims, or too large, is a 400. */
export function checkDocument(contentType: string, bytes: Uint8Array): void {
  const type = documentType(contentType);
  if (bytes.length === 0) throw badRequest('The file is empty');
  if (bytes.length > type.maxBytes)
    throw badRequest(`A ${type.label} file may be at most ${type.maxBytes / MiB} MB; this one is larger`);
  if (!type.matches(bytes)) throw badRequest(`The file is not a valid ${type.label} file`);
}

/** Checks a file by its bytes (checkDocument) and stores it. */
export async function storeDocument(db: Db, doc: NewDocument): Promise<DocumentInfo> {
  const type = documentType(doc.contentType);
  checkDocument(doc.contentType, doc.bytes);
  // As the application PDF is (areas/leads/store.ts): the PII encryption takes text, so the file goes as base64.
  const bytes = doc.encrypted
    ? Buffer.from(encryptPii(Buffer.from(doc.bytes).toString('base64')), 'utf8')
    : doc.bytes;
  if (!/^[a-z][a-z0-9_]{0,49}$/.test(doc.kind))
    throw new Error(`Document kind "${doc.kind}" is not a valid name`);
  const row = await db
    .insertInto('documents')
    .values({
      owner_user_id: doc.owner,
      partner_id: doc.partnerId,
      kind: doc.kind,
      filename: cleanFilename(doc.filename, type.extensions),
      content_type: doc.contentType.toLowerCase(),
      size_bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      content: bytes,
      encrypted: doc.encrypted === true,
    })
    .returning(['id', 'created_at', 'filename', 'content_type', 'size_bytes', 'sha256'])
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    ownerUserId: doc.owner,
    partnerId: doc.partnerId,
    kind: doc.kind,
    filename: row.filename,
    contentType: row.content_type,
    sizeBytes: row.size_bytes,
    sha256: row.sha256,
    createdAt: row.created_at,
  };
}

/**
 * One document with its bytes, read in the caller's transaction: under an ISO scope another ISO's or an
 * internal document is not found (404), exactly like one that does not exist.
 */
export async function readDocument(db: Db, id: number): Promise<StoredDocument> {
  const row = await db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('No such document');
  const stored = Buffer.from(row.content.buffer, row.content.byteOffset, row.content.byteLength);
  const content = row.encrypted ? Buffer.from(decryptPii(stored.toString('utf8')), 'base64') : stored;
  return {
    id: row.id,
    ownerUserId: row.owner_user_id,
    partnerId: row.partner_id,
    kind: row.kind,
    filename: row.filename,
    contentType: row.content_type,
    sizeBytes: row.size_bytes,
    sha256: row.sha256,
    createdAt: row.created_at,
    content,
  };
}

/** RFC 5987 value: UTF-8, percent-encoded except attr-char (encodeURIComponent also leaves ' ( ) * alone). */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * Answers with a document as a download. The quoted filename is an ASCII fallback (no quote, backslash or
 * non-ASCII); a name with other characters also goes as RFC 5987 `filename*`, which browsers prefer.
 */
export function sendDocument(reply: FastifyReply, doc: StoredDocument): FastifyReply {
  const ascii = doc.filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const disposition =
    ascii === doc.filename
      ? `attachment; filename="${ascii}"`
      : `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(doc.filename)}`;
  return reply
    .header('content-type', doc.contentType)
    .header('content-disposition', disposition)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(doc.content);
}
