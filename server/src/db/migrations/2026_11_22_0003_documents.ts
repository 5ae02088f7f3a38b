import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * Files kept in the database (uploaded lead PDFs, underwriting results, generated reports): one place to back
 * up, and the same row-level security as the business data. A document with a partner_id belongs to that ISO;
 * one without is internal, and the ISO policy (`partner_id = <the ISO>`) is never true for a null, so partner
 * staff never see it. See platform/documents.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table documents (
       id serial primary key,
       owner_user_id integer not null references users (id),
       partner_id integer references partners (id),
       kind text not null check (kind ~ '^[a-z][a-z0-9_]{0,49}$'),
       filename text not null check (length(filename) between 1 and 200),
       content_type text not null,
       size_bytes integer not null check (size_bytes > 0),
       sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
       content bytea not null,
       created_at timestamptz not null default now(),
       check (octet_length(content) = size_bytes)
     )`,
    `create index documents_partner_id on documents (partner_id)`,
    `create index documents_owner_user_id on documents (owner_user_id)`,
  ]);
  await scopeToIso(db, 'documents');
}
