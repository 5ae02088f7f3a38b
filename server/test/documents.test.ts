import { createHash } from 'node:crypto';
import { XLSX_MIME } from '@paydesk/domain';
import ExcelJS from 'exceljs';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/connect';
import { cleanFilename, readDocument, sendDocument, storeDocument } from '../src/platform/documents';
import { scopeTransaction } from '../src/platform/scope';
import { testDatabase } from './helpers';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let db: Db;
let close: () => Promise<void>;
let owner: number;
let summit: number;
let loneStar: number;

beforeAll(async () => {
  ({ db, close } = await testDatabase());
  owner = (
    await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@paydesk.local')
      .executeTakeFirstOrThrow()
  ).id;
  const partnerId = async (name: string) =>
    (await db.selectFrom('partners').select('id').where('account_name', '=', name).executeTakeFirstOrThrow())
      .id;
  summit = await partnerId('Summit Payment Group');
  loneStar = await partnerId('Lone Star Processing');
});
afterAll(async () => {
  await close?.();
});

const countDocuments = async () =>
  (
    await db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('documents', () => {
  it('stores a PDF, a workbook and an image and reads each back byte for byte', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Report').addRow(['MID', 'Volume']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const files = [
      { contentType: 'application/pdf', filename: 'application.pdf', bytes: PDF },
      { contentType: XLSX_MIME, filename: 'report.xlsx', bytes: xlsx },
      { contentType: 'image/png', filename: 'id.png', bytes: PNG },
    ];
    for (const file of files) {
      const info = await storeDocument(db, { owner, partnerId: summit, kind: 'lead_application', ...file });
      expect(info).toMatchObject({
        filename: file.filename,
        sizeBytes: file.bytes.length,
        sha256: sha256(file.bytes),
      });
      const doc = await readDocument(db, info.id);
      expect(Buffer.compare(doc.content, file.bytes)).toBe(0);
      expect(doc).toMatchObject({
        ownerUserId: owner,
        partnerId: summit,
        kind: 'lead_application',
        contentType: file.contentType,
      });
      const raw = await db
        .selectFrom('documents')
        .select('sha256')
        .where('id', '=', info.id)
        .executeTakeFirstOrThrow();
      expect(raw.sha256).toBe(sha256(file.bytes));
    }
  });

  it('refuses a file whose bytes are not what it claims, and stores nothing', async () => {
    const before = await countDocuments();
    const claims = [
      { contentType: 'application/pdf', bytes: PNG, message: /not a valid PDF/ },
      // The right start without the end marker: a truncated upload.
      { contentType: 'application/pdf', bytes: PDF.subarray(0, PDF.length - 7), message: /not a valid PDF/ },
      { contentType: XLSX_MIME, bytes: PDF, message: /not a valid XLSX/ },
      { contentType: 'image/jpeg', bytes: PNG, message: /not a valid JPEG/ },
      { contentType: 'text/html', bytes: Buffer.from('<script>'), message: /Only PDF, XLSX, PNG or JPEG/ },
      { contentType: 'application/pdf', bytes: Buffer.alloc(0), message: /empty/ },
    ];
    for (const c of claims) {
      await expect(
        storeDocument(db, { owner, partnerId: summit, kind: 'lead_application', filename: 'a.pdf', ...c }),
      ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(c.message) });
    }
    expect(await countDocuments()).toBe(before);
  });

  it('refuses a file over its type’s limit', async () => {
    const before = await countDocuments();
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 1 - PNG.length)]);
    await expect(
      storeDocument(db, {
        owner,
        partnerId: null,
        kind: 'scan',
        contentType: 'image/png',
        filename: 'x.png',
        bytes: big,
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/at most 5 MB/) });
    expect(await countDocuments()).toBe(before);
  });

  it('cleans the filename: no path, no control characters, its type’s extension, at most 200 characters', async () => {
    const info = await storeDocument(db, {
      owner,
      partnerId: null,
      kind: 'scan',
      contentType: 'application/pdf',
      filename: '../../etc/\u0000pass\u0007wd\u202e.pdf',
      bytes: PDF,
    });
    expect(info.filename).toBe('passwd.pdf');
    expect((await readDocument(db, info.id)).filename).toBe('passwd.pdf');
    expect(cleanFilename('C:\\Users\\x\\..\\evil.exe', ['.pdf'])).toBe('evil.exe.pdf');
    expect(cleanFilename('..', ['.pdf'])).toBe('document.pdf');
    expect(cleanFilename('Photo.JPEG', ['.jpg', '.jpeg'])).toBe('Photo.JPEG');
    const long = cleanFilename(`${'é'.repeat(300)}.pdf`, ['.pdf']);
    expect(long).toBe(`${'é'.repeat(196)}.pdf`);
  });

  it('under an ISO scope shows only that ISO’s documents: not another ISO’s, not internal ones', async () => {
    const store = (partnerId: number | null) =>
      storeDocument(db, {
        owner,
        partnerId,
        kind: 'check',
        contentType: 'application/pdf',
        filename: 'c.pdf',
        bytes: PDF,
      });
    const ours = await store(summit);
    const theirs = await store(loneStar);
    const internal = await store(null);
    const expected = await db.selectFrom('documents').select('id').where('partner_id', '=', summit).execute();
    const seen = await db.transaction().execute(async (trx) => {
      await scopeTransaction(trx, summit);
      return trx.selectFrom('documents').select('id').orderBy('id').execute();
    });
    expect(seen.map((r) => r.id)).toEqual(expected.map((r) => r.id).sort((a, b) => a - b));
    expect(seen.map((r) => r.id)).toContain(ours.id);
    for (const hidden of [theirs.id, internal.id]) {
      await expect(
        db.transaction().execute(async (trx) => {
          await scopeTransaction(trx, summit);
          return readDocument(trx, hidden);
        }),
      ).rejects.toMatchObject({ status: 404 });
    }
    // Nor can an ISO-scoped request file a document under another ISO or as internal.
    for (const partnerId of [loneStar, null]) {
      await expect(
        db.transaction().execute(async (trx) => {
          await scopeTransaction(trx, summit);
          return storeDocument(trx, {
            owner,
            partnerId,
            kind: 'check',
            contentType: 'application/pdf',
            filename: 'c.pdf',
            bytes: PDF,
          });
        }),
      ).rejects.toThrow(/row-level security/);
    }
  });

  it('sends a document as a download with safe headers', async () => {
    const info = await storeDocument(db, {
      owner,
      partnerId: null,
      kind: 'report',
      contentType: 'application/pdf',
      filename: 'Résumé "Q3" 100%.pdf',
      bytes: PDF,
    });
    const app = Fastify();
    app.get('/doc/:id', async (req, reply) =>
      sendDocument(reply, await readDocument(db, Number((req.params as { id: string }).id))),
    );
    const res = await app.inject({ method: 'GET', url: `/doc/${info.id}` });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="R_sum_ _Q3_ 100%.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22Q3%22%20100%25.pdf`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Buffer.compare(res.rawPayload, PDF)).toBe(0);
  });
});
