import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { XLSX_MIME } from '@paydesk/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { Turns } from './turns';

const MiB = 1024 * 1024;

/**
 * The largest spreadsheet accepted, packed: 100,000 rows of the Residual layout (26 columns of real-looking
 * figures) pack to about 18 MB, so 200,000 rows, the most an import reads, fit.
 */
export const MAX_UPLOAD_BYTES = 40 * MiB;

/**
 * Imports that read, unpack and stage a file at once, body included; the rest wait in line (holding only their
 * connection: their bodies are not read yet), and beyond the line they are answered 503. One import holds at
 * most its body (40 MB, twice that for a moment while its pieces are joined) and its shared strings (~90 MB of
 * heap at the limits of XLSX_LIMITS, measured), so two at once add at most ~300 MB whatever is sent.
 */
export const IMPORT_SLOTS = { running: 2, waiting: 8 } as const;
export const IMPORT_BUSY = 'Other imports are running right now. Please try again in a minute.';

/** An upload cut off before its body was read: the connection is closed after the answer. */
export class UploadCutOff extends AppError {}

/**
 * Reads a whole upload body into memory, at most `maxBytes`, within `timeoutMs`: the body is complete before
 * the request's transaction opens, so a slow sender holds only its own connection.
 */
export function readUploadBody(payload: Readable, maxBytes: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    const finish = (err: Error | null) => {
      clearTimeout(timer);
      payload.off('data', onData).off('end', onEnd).off('error', finish).off('close', onClose);
      if (err) {
        payload.pause();
        reject(err);
      } else resolve(Buffer.concat(chunks, seen));
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) finish(tooLarge(maxBytes));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(null);
    // A sender that goes away mid-body: nothing more will come.
    const onClose = () => finish(new AppError('bad_request', 'The upload was interrupted'));
    const timer = setTimeout(
      () =>
        finish(
          new UploadCutOff(
            'request_timeout',
            `The file took longer than ${seconds(timeoutMs)} to arrive. Check the connection and try again.`,
          ),
        ),
      timeoutMs,
    );
    payload.on('data', onData).on('end', onEnd).on('error', finish).on('close', onClose);
  });
}

const seconds = (ms: number) =>
  Math.round(ms / 1000) === 1 ? '1 second' : `${Math.round(ms / 1000)} seconds`;

const tooLarge = (maxBytes: number) =>
  new UploadCutOff('bad_request', `The file is larger than ${Math.round(maxBytes / MiB)} MB`);

const mediaType = (contentType: string | undefined) =>
  (contentType ?? '').split(';')[0]?.trim().toLowerCase();

/**
 * Spreadsheet uploads: a route that declares `file` takes the raw .xlsx as its body. The request first takes an
 * import slot (held until its answer is sent), then the body is read whole within the size and time limits.
 */
export function registerUploads(app: FastifyInstance, bodyTimeoutMs: number): void {
  const slots = new Turns(IMPORT_SLOTS.running, IMPORT_SLOTS.waiting, IMPORT_BUSY);
  app.addHook('preParsing', async (req, reply, payload) => {
    if (mediaType(req.headers['content-type']) !== XLSX_MIME) return payload;
    if (!req.routeOptions.config?.takesFile)
      throw new UploadCutOff('bad_request', 'This call does not take a file');
    if (Number(req.headers['content-length'] ?? 0) > MAX_UPLOAD_BYTES) throw tooLarge(MAX_UPLOAD_BYTES);
    const slot = slots.take();
    reply.raw.once('close', slot.release);
    await slot.ready;
    return payload;
  });
  app.addContentTypeParser(XLSX_MIME, (_req: FastifyRequest, payload: IncomingMessage) =>
    readUploadBody(payload, MAX_UPLOAD_BYTES, bodyTimeoutMs),
  );
  // A document sent as a browser form (multipart/form-data: the file and a few text fields), read whole and
  // bounded like a spreadsheet; only routes that declare `file` take it, and they read its parts (readFormData).
  app.addHook('preParsing', async (req, _reply, payload) => {
    if (mediaType(req.headers['content-type']) !== 'multipart/form-data') return payload;
    if (!req.routeOptions.config?.takesFile)
      throw new UploadCutOff('bad_request', 'This call does not take a file');
    if (Number(req.headers['content-length'] ?? 0) > MAX_FORM_UPLOAD_BYTES)
      throw tooLarge(MAX_FORM_UPLOAD_BYTES);
    return payload;
  });
  app.addContentTypeParser('multipart/form-data', (_req: FastifyRequest, payload: IncomingMessage) =>
    readUploadBody(payload, MAX_FORM_UPLOAD_BYTES, bodyTimeoutMs),
  );
}

/**
 * The largest form upload read: a document's own limit (10 MB for a PDF, platform/documents.ts) with room for
 * the form's other parts, so a file a little too large is still read and refused by its own rule.
 */
export const MAX_FORM_UPLOAD_BYTES = 12 * MiB;

/** The parts of a multipart/form-data body read by the parser above; 400 when it is not one. */
export async function readFormData(body: Buffer, contentType: string | undefined): Promise<FormData> {
  try {
    return await new Response(body, { headers: { 'content-type': contentType ?? '' } }).formData();
  } catch {
    throw new AppError('bad_request', 'The upload could not be read as a form');
  }
}
