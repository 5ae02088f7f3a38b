import {
  type approvalRow,
  CHECK_TYPES,
  type CheckType,
  checkErrorText,
  type checkRow as checkRowSchema,
  effectiveCheckStatus,
  FIRST_STEP,
  isLeadPiiField,
  LEAD_FORM_FIELDS,
  type LeadFormField,
  type LeadFormValues,
  type LeadPiiField,
  type LeadStep,
  type LeadStepIndex,
  type PartialForm,
} from '@paydesk/domain';
import type { z } from 'zod';
import type { Db } from '../../db/connect';
import type { Crm, CrmLead } from '../../platform/crm';
import { notFound } from '../../platform/errors';
import { decryptPii, encryptPii } from '../../platform/pii';

type CheckRow = z.input<typeof checkRowSchema>;
type ApprovalRow = z.input<typeof approvalRow>;

/**
 * The leads tables, read and written in one place: the sensitive fields are encrypted on the way in and
 * decrypted on the way out here only, so no other module touches a *_encrypted column.
 */

const encryptedColumn = {
  ssn: 'ssn_encrypted',
  dob: 'dob_encrypted',
  tin: 'tin_encrypted',
  aba_number: 'aba_number_encrypted',
  dda_number: 'dda_number_encrypted',
} as const satisfies Record<LeadPiiField, string>;

type PlainField = Exclude<LeadFormField, LeadPiiField>;
const PLAIN_FIELDS = LEAD_FORM_FIELDS.filter((f): f is PlainField => !isLeadPiiField(f));

/** The saved form, sensitive values in clear (in memory only), or null when never saved. */
export async function savedForm(db: Db, leadId: string): Promise<LeadFormValues | null> {
  const row = await db.selectFrom('lead_forms').selectAll().where('lead_id', '=', leadId).executeTakeFirst();
  if (!row) return null;
  const clear = (stored: string | null) => (stored === null ? null : decryptPii(stored));
  return {
    lead_id: row.lead_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    ssn: decryptPii(row.ssn_encrypted),
    dob: decryptPii(row.dob_encrypted),
    home_address: row.home_address,
    home_city: row.home_city,
    home_state: row.home_state,
    home_zip: row.home_zip,
    dba: row.dba,
    legal_name: row.legal_name,
    iso_split: row.iso_split === null ? null : Number(row.iso_split),
    tin: clear(row.tin_encrypted),
    business_type: row.business_type,
    business_email: row.business_email,
    business_phone: row.business_phone,
    business_address_1: row.business_address_1,
    business_address_2: row.business_address_2,
    business_city: row.business_city,
    business_state: row.business_state,
    business_zip: row.business_zip,
    aba_number: decryptPii(row.aba_number_encrypted),
    dda_number: decryptPii(row.dda_number_encrypted),
    sales_agent: row.sales_agent,
    years_industry: row.years_industry,
    owner_name: row.owner_name,
  };
}

/**
 * One sensitive field as stored (encrypted), for revealPii: the saved form's, else the application PDF's
 * (encrypted now, so the reveal goes through the same audited path); null when neither has it.
 */
export async function storedPii(db: Db, leadId: string, field: LeadPiiField): Promise<string | null> {
  const column = encryptedColumn[field];
  const row = await db
    .selectFrom('lead_forms')
    .select(column)
    .where('lead_id', '=', leadId)
    .executeTakeFirst();
  const saved = row ? (row as Record<string, string | null>)[column] : null;
  if (saved) return saved;
  const value = (await applicationFields(db, leadId))?.fields[field] ?? null;
  return value ? encryptPii(value) : null;
}

/** A form as text per field (the prefill's currency). */
export function formAsText(form: LeadFormValues): PartialForm {
  const out: PartialForm = {};
  for (const field of LEAD_FORM_FIELDS) {
    const v = form[field];
    out[field] = v === null || v === undefined ? null : String(v);
  }
  return out;
}

export async function saveForm(db: Db, form: LeadFormValues, userId: number): Promise<void> {
  const plain = Object.fromEntries(PLAIN_FIELDS.map((f) => [f, form[f]])) as Record<PlainField, unknown>;
  const values = {
    lead_id: form.lead_id,
    ...(plain as Pick<LeadFormValues, PlainField>),
    iso_split: form.iso_split === null ? null : String(form.iso_split),
    ssn_encrypted: encryptPii(form.ssn),
    dob_encrypted: encryptPii(form.dob),
    tin_encrypted: form.tin === null ? null : encryptPii(form.tin),
    aba_number_encrypted: encryptPii(form.aba_number),
    dda_number_encrypted: encryptPii(form.dda_number),
    saved_by: userId,
    saved_at: new Date(),
  };
  await db
    .insertInto('lead_forms')
    .values(values)
    .onConflict((oc) => oc.column('lead_id').doUpdateSet(values))
    .execute();
}

/** The parsed fields of the lead's application PDF, in clear, and its document id; null when none uploaded. */
export async function applicationFields(
  db: Db,
  leadId: string,
): Promise<{ fields: PartialForm; documentName: string } | null> {
  const row = await db
    .selectFrom('lead_applications')
    .select(['fields_encrypted'])
    .where('lead_id', '=', leadId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    fields: JSON.parse(decryptPii(row.fields_encrypted)) as PartialForm,
    documentName: applicationDocumentName(leadId),
  };
}

/** The application PDF's name for DownloadDocument (it is kept encrypted with the lead, not in `documents`). */
export const applicationDocumentName = (leadId: string) => `application-${leadId}.pdf`;
export const leadOfApplicationDocument = (name: string) =>
  /^application-([A-Za-z0-9]{1,40})\.pdf$/.exec(name)?.[1] ?? null;

/** The application PDF in clear, or null. */
export async function applicationPdf(db: Db, leadId: string): Promise<Buffer | null> {
  const row = await db
    .selectFrom('lead_applications')
    .select('content_encrypted')
    .where('lead_id', '=', leadId)
    .executeTakeFirst();
  return row ? Buffer.from(decryptPii(row.content_encrypted), 'base64') : null;
}

export async function saveApplication(
  db: Db,
  leadId: string,
  file: { filename: string; bytes: Buffer },
  fields: PartialForm,
  userId: number,
): Promise<void> {
  const values = {
    lead_id: leadId,
    filename: file.filename,
    size_bytes: file.bytes.length,
    content_encrypted: encryptPii(file.bytes.toString('base64')),
    fields_encrypted: encryptPii(JSON.stringify(fields)),
    uploaded_by: userId,
    uploaded_at: new Date(),
  };
  await db
    .insertInto('lead_applications')
    .values(values)
    .onConflict((oc) => oc.column('lead_id').doUpdateSet(values))
    .execute();
}

/** What the CRM knows of the lead, in the form's fields (the last prefill source). */
export function crmFormValues(lead: CrmLead): PartialForm {
  return {
    first_name: lead.FirstName,
    last_name: lead.LastName,
    email: lead.Email,
    phone: lead.Phone,
    legal_name: lead.Company,
    dba: lead.Company,
    business_address_1: lead.Street,
    business_city: lead.City,
    business_state: lead.State,
    business_zip: lead.PostalCode,
    owner_name: lead.Real_Owner_del__c,
  };
}

/** The lead from the CRM, or 404. */
export async function crmLead(db: Db, crm: Crm, leadId: string): Promise<CrmLead> {
  const lead = await crm.lead(db, leadId);
  if (!lead) throw notFound('No such lead in the CRM');
  return lead;
}

// ---------------------------------------------------------------- steps

export async function currentStep(db: Db, leadId: string): Promise<LeadStep> {
  const row = await db
    .selectFrom('lead_steps')
    .select(['current_step', 'completed'])
    .where('lead_id', '=', leadId)
    .executeTakeFirst();
  return row ? { current_step: row.current_step as LeadStepIndex, completed: row.completed } : FIRST_STEP;
}

export async function setStep(db: Db, leadId: string, step: LeadStep): Promise<void> {
  const values = { lead_id: leadId, ...step, updated_at: new Date() };
  await db
    .insertInto('lead_steps')
    .values(values)
    .onConflict((oc) => oc.column('lead_id').doUpdateSet(values))
    .execute();
}

export const stepAnswer = (leadId: string, step: LeadStep) => ({ lead_id: leadId, ...step });

// ---------------------------------------------------------------- checks

export interface CheckState {
  check_type: CheckType;
  runtime_status: CheckRow['runtime_status'];
  run: number;
  result: string | null;
  error_msg: string | null;
  document_name: string | null;
  queued_by: number | null;
  started_at: Date | null;
  finished_at: Date | null;
}

/** All five checks of a lead, in the spec's order; a check never run has no status. */
export async function checkStates(db: Db, leadId: string): Promise<CheckState[]> {
  const rows = await db
    .selectFrom('lead_checks')
    .select([
      'check_type',
      'runtime_status',
      'run',
      'result',
      'error_msg',
      'document_name',
      'queued_by',
      'started_at',
      'finished_at',
    ])
    .where('lead_id', '=', leadId)
    .execute();
  const byType = new Map(rows.map((r) => [r.check_type, r]));
  return CHECK_TYPES.map(
    (type) =>
      byType.get(type) ?? {
        check_type: type,
        runtime_status: null,
        run: 0,
        result: null,
        error_msg: null,
        document_name: null,
        queued_by: null,
        started_at: null,
        finished_at: null,
      },
  );
}

/** A check as answered at `now`: the effective status, and the runtime in seconds (so far, while it runs). */
export function checkRow(check: CheckState, now: Date): CheckRow {
  const status = effectiveCheckStatus(check, now);
  const end = check.finished_at ?? (status === 'started' ? now : null);
  const runtime =
    check.started_at && end
      ? Math.max(0, Math.round((end.getTime() - check.started_at.getTime()) / 100) / 10)
      : null;
  return {
    check_type: check.check_type,
    document_name: check.document_name,
    error_msg: checkErrorText(check, now),
    runtime,
    runtime_status: status,
    result: check.result,
    started_at: check.started_at,
    finished_at: check.finished_at,
  };
}

// ---------------------------------------------------------------- approvals

type ApprovalRecord = Omit<ApprovalRow, 'crm_url' | 'approved' | 'created_on' | 'decided_on'> & {
  approved: number | null;
  created_on: Date;
  decided_on: Date | null;
};

const approvalColumns = [
  'id as app_id',
  'lead_id',
  'assigned_user',
  'assigned_by',
  'cc_user',
  'created_on',
  'approved',
  'comment',
  'decided_on',
  'first_name',
  'last_name',
  'dba',
  'owner_name',
  'uw_name',
  'account_id',
] as const;

/** Approvals newest first; with a lead id, that lead's only. */
export async function approvals(db: Db, leadId?: string): Promise<ApprovalRecord[]> {
  let q = db
    .selectFrom('lead_approvals')
    .select(approvalColumns)
    .orderBy('created_on', 'desc')
    .orderBy('id', 'desc');
  if (leadId !== undefined) q = q.where('lead_id', '=', leadId);
  return (await q.execute()) as ApprovalRecord[];
}

/** An approval as answered, with the CRM profile link once approved. */
export async function approvalAnswer(crm: Crm, a: ApprovalRecord): Promise<ApprovalRow> {
  return {
    ...a,
    approved: a.approved === 1 ? 1 : a.approved === 0 ? 0 : null,
    crm_url: a.approved === 1 && a.account_id ? await crm.accountUrl(a.account_id) : null,
  };
}

/** The lead's standing for the step and lock rules. */
export async function leadStanding(db: Db, leadId: string) {
  const [latest] = await approvals(db, leadId);
  return {
    formSaved:
      (await db
        .selectFrom('lead_forms')
        .select('lead_id')
        .where('lead_id', '=', leadId)
        .executeTakeFirst()) !== undefined,
    sentForApproval: latest !== undefined,
    pending: latest !== undefined && latest.approved === null,
    approved: latest?.approved === 1,
    decided: latest !== undefined && latest.approved !== null,
  };
}

/** A person's name from their e-mail, for the approval (PayDesk keeps no names): "jane.doe@…" → "Jane Doe". */
export function nameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? email;
  return local
    .split(/[._-]+/)
    .filter((p) => p !== '')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join(' ');
}
