import type { Kysely } from 'kysely';
import { hideFromIsoRole, run } from './helpers';

/**
 * E-mail is written to the outbox in the request's transaction and delivered by the `mail.deliver` job
 * (platform/mailer.ts), so each row now says how delivery went: `pending` (queued or retrying), `sent`,
 * `failed` (the SMTP server refused it, or the retries ran out) or `local` (no SMTP server is configured: it
 * stays here to be read on the Outbox screen). Mails written before delivery existed were only ever local.
 * Attachments are documents (internal: no partner_id), listed in order per mail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `alter table outbox
       add column state text not null default 'pending'
         check (state in ('pending', 'sent', 'failed', 'local')),
       add column attempts integer not null default 0 check (attempts >= 0),
       add column last_error text,
       add column sent_at timestamptz`,
    `update outbox set state = 'local'`,
    'create index outbox_created_at on outbox (created_at desc, id desc)',
    `create table outbox_attachments (
       outbox_id integer not null references outbox (id) on delete cascade,
       document_id integer not null unique references documents (id),
       position smallint not null check (position >= 0),
       primary key (outbox_id, position)
     )`,
  ]);
  await hideFromIsoRole(db, ['outbox_attachments']);
}
