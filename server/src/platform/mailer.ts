import { sql } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import { z } from 'zod';
import type { Db } from '../db/connect';
import { contentTypeOfFilename, storeDocument } from './documents';
import { badRequest } from './errors';
import { defineJob, type Jobs } from './jobs';

export interface MailAttachment {
  /** Its name in the mail; the extension says the type (.pdf, .xlsx, .png, .jpg), which the bytes must match. */
  filename: string;
  content: Buffer;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /**
   * The user whose action sends the mail: the attachments are kept as documents they own. Required with
   * attachments; a mail without any (a password reset) may have no user behind it.
   */
  sentBy?: number;
}

const MiB = 1024 * 1024;
/** Per mail: what common mail servers accept (their limits start around 25 MB once encoded). */
export const MAIL_ATTACHMENT_LIMITS = { count: 5, totalBytes: 25 * MiB } as const;

export const MAIL_DELIVER = 'mail.deliver';
export const mailDeliverPayload = z.strictObject({ outboxId: z.number().int().positive() });

/**
 * Outgoing e-mail. `send` writes the mail to the outbox in the caller's transaction and queues its delivery
 * (the `mail.deliver` job) in the same transaction: a request that rolls back leaves neither, so a mail is
 * never sent for something that did not happen, and one that was committed is never lost (a restart picks
 * the job up again). Delivery never fails the caller's request: a forgotten-password answer must look the
 * same whether or not the SMTP server is up.
 */
export class Mailer {
  /** Jobs: the server's queue, or a job's own sender (a job that mails queues the delivery in its transaction). */
  constructor(private readonly jobs: Pick<Jobs, 'definition' | 'send'>) {}

  /** Answers the outbox row's id. An attachment that is not what its name says, or too large, is a 400. */
  async send(db: Db, message: MailMessage): Promise<number> {
    const attachments = message.attachments ?? [];
    if (attachments.length > MAIL_ATTACHMENT_LIMITS.count)
      throw badRequest(`An e-mail may carry at most ${MAIL_ATTACHMENT_LIMITS.count} attachments`);
    const totalBytes = attachments.reduce((sum, a) => sum + a.content.length, 0);
    if (totalBytes > MAIL_ATTACHMENT_LIMITS.totalBytes)
      throw badRequest(
        `The attachments of an e-mail may add up to at most ${MAIL_ATTACHMENT_LIMITS.totalBytes / MiB} MB`,
      );
    if (attachments.length > 0 && message.sentBy === undefined)
      throw new Error('An e-mail with attachments needs the user who sends it (sentBy)');

    const { id } = await db
      .insertInto('outbox')
      .values({
        to_address: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [position, attachment] of attachments.entries()) {
      const document = await storeDocument(db, {
        owner: message.sentBy as number,
        // Internal: partner staff never read another's mail, whatever it carries.
        partnerId: null,
        kind: 'mail_attachment',
        filename: attachment.filename,
        contentType: contentTypeOfFilename(attachment.filename),
        bytes: attachment.content,
      });
      await db
        .insertInto('outbox_attachments')
        .values({ outbox_id: id, document_id: document.id, position })
        .execute();
    }
    const delivery = this.jobs.definition(MAIL_DELIVER);
    if (!delivery) throw new Error(`The ${MAIL_DELIVER} job is not declared on this server`);
    await this.jobs.send(delivery, { outboxId: id }, { db, startedBy: message.sentBy ?? null });
    return id;
  }
}

export interface MailSettings {
  /** SMTP server (SMTP_URL); unset, mails stay in the local outbox. */
  smtpUrl: string | undefined;
  /** Sender (MAIL_FROM). */
  from: string;
}

export interface MailRetries {
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
}

/**
 * While the SMTP server cannot be reached, a mail is tried 9 times: the first try and 8 retries, each pause
 * double the last with some randomness (pg-boss: 30 s × 2^n × 1–2), so the tries span about 2 to 4 hours
 * before the mail is marked failed: longer than a mail server's restart or a short outage.
 */
export const MAIL_RETRIES: MailRetries = { retryLimit: 8, retryDelaySeconds: 30, retryBackoff: true };

/** Shown in the outbox and on the Jobs screen; long SMTP answers are cut. */
const ERROR_TEXT_MAX = 500;

function deliveryError(err: unknown): { message: string; permanent: boolean } {
  const e = err as { message?: unknown; permanent?: unknown; code?: unknown };
  const message = (typeof e?.message === 'string' ? e.message : String(err)).slice(0, ERROR_TEXT_MAX);
  // A 5xx answer (an unknown recipient, a refused sender) will not change by retrying; a refused login will,
  // once the operator fixes SMTP_URL, so it is retried like a server that is down.
  return { message, permanent: e?.permanent === true && e.code !== 'EAUTH' };
}

/**
 * Delivers one outbox mail. It waits on the SMTP server, so it runs outside any transaction ('none') and
 * writes the outcome in its own short statements; it is safe to run again: a mail already sent is skipped.
 * (A crash between the SMTP server's acceptance and the `sent` mark would send it twice: at least once, never
 * lost.) An SMTP error is recorded on the row and rethrown so pg-boss retries; the last try, or an answer
 * that retrying cannot change, marks the mail `failed`. Nothing of the mail is logged: its text can hold a
 * reset link, its attachments business data.
 */
export function mailDeliveryJob(settings: MailSettings, retries: MailRetries = MAIL_RETRIES) {
  let transport: Transporter | null = null;
  const smtp = (url: string) => {
    // nodemailer waits up to 10 minutes on a silent socket by default; a try must end well within the job's
    // timeout, or pg-boss would retry it while it may still be sending.
    transport ??= nodemailer.createTransport({
      url,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    return transport;
  };
  return defineJob({
    name: MAIL_DELIVER,
    payload: mailDeliverPayload,
    describe: ({ outboxId }) => `Outbox e-mail ${outboxId}`,
    ...retries,
    timeoutSeconds: 300,
    transaction: 'none',
    run: async ({ db, lastAttempt }, { outboxId }) => {
      const mail = await db
        .selectFrom('outbox')
        .select(['to_address', 'subject', 'text_body', 'html_body', 'state'])
        .where('id', '=', outboxId)
        .executeTakeFirst();
      if (!mail) return 'No such e-mail';
      if (mail.state === 'sent') return 'Already sent';
      if (!settings.smtpUrl) {
        await db.updateTable('outbox').set({ state: 'local' }).where('id', '=', outboxId).execute();
        return 'Kept in the local outbox (no SMTP server configured)';
      }
      const attachments = await db
        .selectFrom('outbox_attachments as a')
        .innerJoin('documents as d', 'd.id', 'a.document_id')
        .select(['d.filename', 'd.content_type', 'd.content'])
        .where('a.outbox_id', '=', outboxId)
        .orderBy('a.position')
        .execute();
      try {
        await smtp(settings.smtpUrl).sendMail({
          from: settings.from,
          to: mail.to_address,
          subject: mail.subject,
          text: mail.text_body,
          ...(mail.html_body === null ? {} : { html: mail.html_body }),
          attachments: attachments.map((a) => ({
            filename: a.filename,
            contentType: a.content_type,
            content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
          })),
        });
      } catch (err) {
        const { message, permanent } = deliveryError(err);
        const failed = permanent || lastAttempt;
        await db
          .updateTable('outbox')
          .set({ state: failed ? 'failed' : 'pending', attempts: sql`attempts + 1`, last_error: message })
          .where('id', '=', outboxId)
          .where('state', '<>', 'sent')
          .execute();
        if (permanent) return `Not delivered: the SMTP server refused it (${message})`;
        throw new Error(`SMTP delivery failed: ${message}`);
      }
      await db
        .updateTable('outbox')
        .set({ state: 'sent', sent_at: new Date(), attempts: sql`attempts + 1` })
        .where('id', '=', outboxId)
        .execute();
      return 'Sent';
    },
  });
}
