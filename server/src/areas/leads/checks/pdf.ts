import { type AutomaticCheck, CHECK_DESCRIPTIONS } from '@paydesk/domain';
import PDFDocument from 'pdfkit';
import type { CheckOutcome } from './types';

/** The result document of a finished check: what was asked, who answered, what they found. */
export function checkResultPdf(input: {
  check: AutomaticCheck;
  leadId: string;
  legalName: string;
  provider: string;
  sandbox: boolean;
  outcome: CheckOutcome;
  finishedAt: Date;
}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 50,
    info: {
      Title: `${input.check} result for ${input.legalName}`,
      Author: 'PayDesk',
      CreationDate: input.finishedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.fontSize(18).text(`${input.check} underwriting check`);
  doc.moveDown(0.3).fontSize(10).fillColor('#555555').text(CHECK_DESCRIPTIONS[input.check]);
  doc.moveDown();
  doc.fillColor('#000000').fontSize(11);
  const lines: [string, string][] = [
    ['Lead', input.leadId],
    ['Business', input.legalName],
    ['Provider', input.sandbox ? 'PayDesk sandbox (no vendor was called; test result)' : input.provider],
    ['Finished', `${input.finishedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`],
    ['Result', input.outcome.verdict === 'hit' ? 'FINDING — review before approving' : 'Clear'],
    ['Summary', input.outcome.summary],
    ...input.outcome.details,
  ];
  for (const [label, value] of lines) doc.text(`${label}: ${value}`);
  doc.end();
  return done;
}
