import '../zodConfig';
import { z } from 'zod';
import { endpoint, messageAnswer, timestamp } from '../endpoint';
import { CHECK_STATUSES, CHECK_TYPES } from './checks';
import { LEAD_FORM_FIELDS, LEAD_PII_FIELDS, leadFormSchema, leadId } from './form';
import { PREFILL_SOURCES } from './prefill';

/**
 * The leads calls (spec document 3 §7 "Leads"), with the spec's paths and field names, plus PayDesk's own
 * reveal call. Who may call (enforced by the server):
 * - every call under /api/leads/ except the two public ones needs the `leads` capability (internal staff only);
 * - GetApproval and Approve are the underwriter's e-mailed link: no session, rate-limited, and they take only the
 *   link's token (`app_id` there IS the token from /leads/app?id=…, never a row number). Once used or expired
 *   the token answers as not found: 404 "The link is not valid or has expired!".
 * Sensitive fields (SSN, DOB, TIN, routing, DDA) are never in a list answer; GetLead answers them masked and
 * RevealLeadField gives one in full (audited).
 */

export const leadsPaths = {
  addLead: '/api/leads/AddLead',
  runChecks: '/api/leads/RunChecks',
  addCurrentStep: '/api/leads/AddCurrentStep',
  getCurrentStep: '/api/leads/GetCurrentStep',
  getChecks: '/api/leads/GetChecks',
  getLeadApproval: '/api/leads/GetLeadApproval',
  getLead: '/api/leads/GetLead',
  downloadDocument: '/api/leads/DownloadDocument',
  uploadDocument: '/api/leads/UploadDocument',
  getUnderwriters: '/api/leads/GetUnderwriters',
  sendForApproval: '/api/leads/SendForApproval',
  getLeads: '/api/leads/GetLeads',
  getApprovals: '/api/leads/GetApprovals',
  getApproval: '/api/leads/GetApproval',
  approve: '/api/leads/Approve',
  /** PayDesk's own: one sensitive field in full, audited. */
  revealField: '/api/app/leads/RevealField',
} as const;

/** The public approval page; the e-mailed link is `${origin}${LEADS_APPROVAL_PAGE}?id=<token>`. */
export const LEADS_APPROVAL_PAGE = '/leads/app';

/** What the public page shows (spec §2.5, §8). */
export const APPROVAL_PAGE_TEXT = {
  sent: 'The decision has been sent. Thank you!',
  invalid: 'The link is not valid or has expired!',
  error: 'Something went wrong...',
} as const;

/** An approval link is good for this long after it is sent (and for one decision). */
export const APPROVAL_LINK_LIFETIME_HOURS = 72;

/**
 * UploadDocument's kinds: the LexisNexis report, or the merchant's application (a fillable PDF whose form fields
 * prefill the lead form). Both are PDFs, checked by content, at most 10 MB.
 */
export const UPLOAD_KINDS = ['LexisNexis', 'Application'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];
export const LEAD_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

// ---------------------------------------------------------------- shapes

const leadBody = z.strictObject({ lead_id: leadId });

/** A lead as the CRM lists it (spec §3 "Lead"); Real_Owner_del__c is the owning RM's name, the picker's group. */
export const leadRecord = z.object({
  Id: z.string(),
  Name: z.string(),
  Company: z.string().nullable(),
  Status: z.string(),
  CreatedDate: timestamp,
  Real_Owner_del__c: z.string().nullable(),
});
export type LeadRecord = z.output<typeof leadRecord>;

/** The CRM's fields of one lead (no sensitive data: the CRM's lead holds none). */
export const leadCrmDetails = leadRecord.extend({
  FirstName: z.string().nullable(),
  LastName: z.string().nullable(),
  Email: z.string().nullable(),
  Phone: z.string().nullable(),
  Street: z.string().nullable(),
  City: z.string().nullable(),
  State: z.string().nullable(),
  PostalCode: z.string().nullable(),
  /** Set once the lead was converted in the CRM (approved). */
  ConvertedAccountId: z.string().nullable(),
});

const formValue = z.string().nullable();
/** The form as GetLead answers it: text values (numbers as text), sensitive ones masked. */
export const leadFormAnswer = z.object(
  Object.fromEntries(LEAD_FORM_FIELDS.map((f) => [f, formValue])) as Record<
    (typeof LEAD_FORM_FIELDS)[number],
    typeof formValue
  >,
);

const prefillSource = z.enum(PREFILL_SOURCES).nullable();

export const getLeadAnswer = z.object({
  lead: leadCrmDetails,
  form: leadFormAnswer,
  /** Where each value came from (saved, then application, then crm); null when none had it. */
  sources: z.object(
    Object.fromEntries(LEAD_FORM_FIELDS.map((f) => [f, prefillSource])) as Record<
      (typeof LEAD_FORM_FIELDS)[number],
      typeof prefillSource
    >,
  ),
  /** The form has been saved at least once. */
  saved: z.boolean(),
  /** Approved: the form is read-only, the save buttons hidden, and the server refuses changes. */
  locked: z.boolean(),
  /** The uploaded application PDF the form was prefilled from, if any (a document_name for DownloadDocument). */
  application_document: z.string().nullable(),
});

export const leadStepAnswer = z.object({
  lead_id: z.string(),
  current_step: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  completed: z.boolean(),
});

export const checkRow = z.object({
  check_type: z.enum(CHECK_TYPES),
  /** The check's documents (result PDFs, the uploaded report), names separated by a pipe. */
  document_name: z.string().nullable(),
  /** The effective message: a stopped check's error, or "Unknown error" (spec §8). */
  error_msg: z.string().nullable(),
  /** Seconds from start to finish (or until now while it runs); null before it starts. */
  runtime: z.number().nullable(),
  /** Effective status at the time of the answer: a check started over 15 minutes ago is "stopped". */
  runtime_status: z.enum(CHECK_STATUSES).nullable(),
  /** The provider's one-line verdict, e.g. "No match found" or "1 MATCH record: terminated for fraud". */
  result: z.string().nullable(),
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
});
export type CheckRow = z.output<typeof checkRow>;

export const checksAnswer = z.object({
  lead_id: z.string(),
  checks: z.array(checkRow),
  /** shouldPollChecks at the server's clock: the client keeps polling every 2 s while true. */
  polling: z.boolean(),
});

/** An approval (spec §3). approved: null pending, 1 approved, 0 rejected. `app_id` here is the row's number. */
export const approvalRow = z.object({
  app_id: z.number(),
  lead_id: z.string(),
  assigned_user: z.string().describe('the underwriter’s e-mail'),
  assigned_by: z.string().describe('the RM’s e-mail'),
  cc_user: z.string().nullable(),
  created_on: timestamp,
  approved: z.union([z.literal(0), z.literal(1)]).nullable(),
  comment: z.string().nullable(),
  decided_on: timestamp.nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  dba: z.string().nullable(),
  owner_name: z.string().nullable(),
  uw_name: z.string(),
  account_id: z.string().nullable(),
  /** The CRM profile of the converted account, once approved. */
  crm_url: z.string().nullable(),
});
export type ApprovalRow = z.output<typeof approvalRow>;

export const underwriter = z.object({ name: z.string(), email: z.string() });

/** What the public page may show: who the applicant is and how the checks came out, nothing sensitive. */
export const publicApproval = z.object({
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  dba: z.string().nullable(),
  legal_name: z.string().nullable(),
  owner_name: z.string().nullable(),
  uw_name: z.string(),
  created_on: timestamp,
  expires_on: timestamp,
  checks: z.array(
    z.object({
      check_type: z.enum(CHECK_TYPES),
      runtime_status: z.enum(CHECK_STATUSES).nullable(),
      result: z.string().nullable(),
    }),
  ),
});

/** The token from the e-mailed link: 43 URL-safe base64 characters (32 random bytes). */
export const approvalToken = z
  .string({ error: 'The link is not valid or has expired!' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{20,100}$/, 'The link is not valid or has expired!')
  .meta({ examples: ['q3Xb8mJ2w0t1vYc9LrNf5kQe7HsA4dZuGiPo6TnWxE'] });

const comment = z
  .string()
  .trim()
  .max(2000, 'The comment is at most 2000 characters')
  .nullable()
  .optional()
  .transform((v) => (v === undefined || v === '' ? null : v));

const approvedFlag = z
  .union([z.literal(0), z.literal(1), z.boolean()], { error: 'approved is 1 (approve) or 0 (reject)' })
  .transform((v) => v === 1 || v === true);

const userEmail = z
  .string()
  .meta({ examples: ['finance.admin@paydesk.local'] })
  .trim()
  .toLowerCase()
  .max(254, 'The e-mail is too long')
  .pipe(z.email({ error: 'Choose a user' }));

// ---------------------------------------------------------------- calls

export const leadsEndpoints = {
  addLead: endpoint({
    method: 'POST',
    path: leadsPaths.addLead,
    summary:
      'Saves the lead form (all its fields, checked); the lead moves to Run Validations. Refused once approved',
    input: leadFormSchema,
    output: messageAnswer.extend({ step: leadStepAnswer }),
  }),
  runChecks: endpoint({
    method: 'POST',
    path: leadsPaths.runChecks,
    summary: 'Queues an automatic check (DataX, Match, TinCheck, Giact), or all four with check_name "All"',
    input: leadBody.extend({
      check_name: z.enum(['DataX', 'Match', 'TinCheck', 'Giact', 'All'], {
        error: 'check_name is DataX, Match, TinCheck, Giact or All',
      }),
    }),
    output: checksAnswer,
  }),
  addCurrentStep: endpoint({
    method: 'POST',
    path: leadsPaths.addCurrentStep,
    summary: "Moves the lead's stepper, if the step rules allow it (400 with the reason otherwise)",
    input: leadBody.extend({
      current_step: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
        error: 'current_step is 0, 1, 2 or 3',
      }),
      completed: z.boolean({ error: 'completed is true or false' }),
    }),
    output: leadStepAnswer,
  }),
  getCurrentStep: endpoint({
    method: 'POST',
    path: leadsPaths.getCurrentStep,
    summary: "The lead's current step and whether it is completed (step 0 for a new lead)",
    input: leadBody,
    output: leadStepAnswer,
  }),
  getChecks: endpoint({
    method: 'POST',
    path: leadsPaths.getChecks,
    summary: "The lead's five checks with their effective status, runtime, error and documents",
    input: leadBody,
    output: checksAnswer,
  }),
  getLeadApproval: endpoint({
    method: 'POST',
    path: leadsPaths.getLeadApproval,
    summary: "The lead's latest approval request, or null if never sent",
    input: leadBody,
    output: z.object({ approval: approvalRow.nullable() }),
  }),
  getLead: endpoint({
    method: 'POST',
    path: leadsPaths.getLead,
    summary:
      'The lead from the CRM and its form prefilled (saved, then application PDF, then CRM); PII masked',
    input: leadBody,
    output: getLeadAnswer,
  }),
  downloadDocument: endpoint({
    method: 'POST',
    path: leadsPaths.downloadDocument,
    summary: 'One lead document (a check result or an upload) as a base64 PDF',
    input: z.strictObject({
      document_name: z
        .string()
        .trim()
        .min(1, 'document_name is required')
        .max(300, 'document_name is too long'),
    }),
    output: z.object({
      document_name: z.string(),
      content_type: z.literal('application/pdf'),
      content: z.string(),
    }),
  }),
  /**
   * multipart/form-data with the fields file, lead_id and check_name (LexisNexis or Application). The input
   * schema below is for the two text fields; the file is checked by content (a PDF, at most 10 MB). A refused
   * LexisNexis upload marks the check stopped.
   */
  uploadDocument: endpoint({
    method: 'POST',
    path: leadsPaths.uploadDocument,
    summary: 'Uploads a PDF for a lead (multipart: file, lead_id, check_name LexisNexis or Application)',
    input: leadBody.extend({
      check_name: z.enum(UPLOAD_KINDS, { error: 'check_name is LexisNexis or Application' }),
    }),
    output: z.object({ document_name: z.string() }),
  }),
  getUnderwriters: endpoint({
    method: 'GET',
    path: leadsPaths.getUnderwriters,
    summary: 'Users holding the Underwriter capability, and the users who may be copied (cc)',
    output: z.object({ underwriters: z.array(underwriter), cc_users: z.array(underwriter) }),
  }),
  sendForApproval: endpoint({
    method: 'POST',
    path: leadsPaths.sendForApproval,
    summary: 'E-mails the underwriter (and cc) a single-use link to decide; the lead moves to Decision',
    input: leadBody.extend({
      assigned_user: userEmail.describe('the underwriter’s e-mail (GetUnderwriters)'),
      cc_user: z.preprocess((v) => (v === '' || v === undefined ? null : v), userEmail.nullable()),
    }),
    output: messageAnswer.extend({ approval: approvalRow, step: leadStepAnswer }),
  }),
  getLeads: endpoint({
    method: 'GET',
    path: leadsPaths.getLeads,
    summary: 'Every lead the CRM holds (name, company, status, created date, owner), newest first',
    output: z.object({ records: z.array(leadRecord) }),
  }),
  getApprovals: endpoint({
    method: 'GET',
    path: leadsPaths.getApprovals,
    summary: 'Every approval request with its status (the approval cards), newest first',
    output: z.object({ approvals: z.array(approvalRow) }),
  }),
  getApproval: endpoint({
    method: 'POST',
    path: leadsPaths.getApproval,
    summary: 'Public (the e-mailed link): the applicant to decide on; 404 when the link is used or expired',
    input: z.strictObject({ app_id: approvalToken }),
    output: publicApproval,
  }),
  approve: endpoint({
    method: 'POST',
    path: leadsPaths.approve,
    summary: 'Public (the e-mailed link): records the decision once; the link cannot be used again',
    input: z.strictObject({
      app_id: approvalToken,
      lead_id: leadId.optional().describe('if given, must be the link’s lead'),
      approved: approvedFlag,
      comment,
    }),
    output: messageAnswer,
  }),
  revealField: endpoint({
    method: 'POST',
    path: leadsPaths.revealField,
    summary:
      'One sensitive field of a lead form in full (SSN, DOB, TIN, routing, DDA); every reveal is audited',
    input: leadBody.extend({
      field: z.enum(LEAD_PII_FIELDS, { error: 'field is one of ssn, dob, tin, aba_number, dda_number' }),
    }),
    output: z.object({ field: z.enum(LEAD_PII_FIELDS), value: z.string().nullable() }),
  }),
} as const;
