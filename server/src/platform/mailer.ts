import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/connect';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Outgoing e-mail. `send` never fails the caller's request because of delivery: a forgotten-password answer
 * must look the same whether or not a mail went out.
 */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(db: Db, message: MailMessage): Promise<void>;
  /** Waits for mail still being delivered (shutdown, tests). */
  flush(): Promise<void>;
}

interface Log {
  error(obj: unknown, msg?: string): void;
}

/** Real delivery through an SMTP server (SMTP_URL). Delivery runs after the request, in the background. */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp';
  private readonly transport: Transporter;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly log: Log,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(_db: Db, message: MailMessage): Promise<void> {
    const delivery = this.transport
      .sendMail({ from: this.from, ...message })
      .then(() => undefined)
      .catch((err: unknown) => this.log.error({ err, to: message.to }, 'e-mail delivery failed'))
      .finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
  }

  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}

/**
 * The local sandbox, used when SMTP_URL is not set: messages are written to the outbox table (in the
 * request's transaction) and shown on the admin-only Outbox screen, so the product works offline.
 */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox';
  async send(db: Db, message: MailMessage): Promise<void> {
    await db
      .insertInto('outbox')
      .values({
        to_address: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html ?? null,
      })
      .execute();
  }
  async flush(): Promise<void> {}
}
