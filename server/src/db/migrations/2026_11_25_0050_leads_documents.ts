import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * A document may be kept encrypted with the PII key (platform/pii.ts): the LexisNexis report uploaded for a lead
 * holds the applicant's personal data. `encrypted` says how the content is to be read, so the documents stored
 * in clear before this migration stay readable as they are. size_bytes and sha256 describe the stored bytes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, ['alter table documents add column encrypted boolean not null default false']);
}
