import { createHash, randomBytes } from 'node:crypto';
import {
  APPROVAL_LINK_LIFETIME_HOURS,
  APPROVAL_PAGE_TEXT,
  AUTOMATIC_CHECKS,
  type AutomaticCheck,
  allAutomaticChecksFinished,
  applyStepChange,
  CHECK_TYPES,
  effectiveCheckStatus,
  isMaskedValue,
  joinDocumentNames,
  LEAD_FIELD_LABELS,
  type LEAD_FORM_FIELDS,
  LEAD_PII_FIELDS,
  LEADS_APPROVAL_PAGE,
  type LeadFormValues,
  type LeadPiiField,
  leadFieldProblem,
  leadsEndpoints,
  maskLeadField,
  nextCheckStatus,
  prefillLeadForm,
  STEP_AFTER_DECISION,
  STEP_AFTER_SENDING,
  shouldPollChecks,
  splitDocumentNames,
  stepAfterSave,
  stepChangeProblem,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect';
import { keptJson } from '../../platform/answerCache';
import { audit } from '../../platform/audit';
import { type Crm, type CrmLead, SandboxCrm } from '../../platform/crm';
import { checkDocument, cleanFilename, readDocument, storeDocument } from '../../platform/documents';
import { AppError, badRequest, notFound } from '../../platform/errors';
import { type Deps, jsonText, route } from '../../platform/http';
import { revealPii } from '../../platform/pii';
import { readFormData } from '../../platform/uploads';
import { CHECK_JOB_NAMES, documentIdOf, documentName } from './jobs';
import {
  applicationDocumentName,
  applicationFields,
  applicationPdf,
  approvalAnswer,
  approvals,
  checkRow,
  checkStates,
  crmFormValues,
  crmLead,
  currentStep,
  formAsText,
  leadOfApplicationDocument,
  leadStanding,
  nameFromEmail,
  saveApplication,
  savedForm,
  saveForm,
  setStep,
  stepAnswer,
  storedPii,
} from './store';

/**
 * The leads calls (spec document 3 §7; contracts in domain/src/leads/contracts.ts; the flow in docs/leads.md).
 * Everything but the approval link needs the `leads` capability and is internal (staffOnly). Sensitive fields
 * leave the server masked (GetLead) or one at a time through RevealField, which is audited; they never appear in
 * a list answer, a log line or an audit entry. Every change is audited.
 */

const LOCKED = 'This lead has been approved; it can no longer change';
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The form's first values: saved data, then the application PDF's fields, then the CRM (spec §2.4). */
async function prefill(db: Db, lead: CrmLead) {
  const saved = await savedForm(db, lead.Id);
  const application = await applicationFields(db, lead.Id);
  const filled = prefillLeadForm({
    saved: saved ? formAsText(saved) : null,
    application: application?.fields ?? null,
    crm: crmFormValues(lead),
  });
  return { ...filled, saved: saved !== null, applicationDocument: application?.documentName ?? null };
}

export function leadsRoutes(app: FastifyInstance, deps: Deps): void {
  const crm: Crm = deps.crm ?? new SandboxCrm();
  const E = leadsEndpoints;
  const ip = (req: { ip: string }) => req.ip;

  route(app, deps, {
    endpoint: E.getLeads,
    access: 'leads',
    scope: 'staffOnly',
    // 10,000 leads on every picker load: the sandbox writes the list as JSON in SQL and it is kept until crm_leads
    // changes (platform/answerCache.ts), with its bytes as sent (1.7 MB at the large scale, a tenth of that
    // gzip-compressed for a browser), so a load neither encodes nor compresses it again. A remote CRM's list is
    // stringified here. The record fields are the CRM's, nothing sensitive; leads.test.ts parses the answer with
    // the endpoint's schema.
    handler: async ({ db }) => {
      const { leadsJson } = crm;
      if (!leadsJson) return jsonText(JSON.stringify({ records: await crm.leads(db) }));
      return keptJson(deps.db, db, 'leads', 'all', () => leadsJson.call(crm, db));
    },
  });

  route(app, deps, {
    endpoint: E.getLead,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ input, db }) => {
      const lead = await crmLead(db, crm, input.lead_id);
      const filled = await prefill(db, lead);
      const form = { ...filled.values };
      for (const field of LEAD_PII_FIELDS) form[field] = maskLeadField(field, form[field]);
      const standing = await leadStanding(db, lead.Id);
      return {
        lead: lead,
        form: form as Record<(typeof LEAD_FORM_FIELDS)[number], string | null>,
        sources: filled.sources,
        saved: filled.saved,
        locked: standing.approved,
        application_document: filled.applicationDocument,
      };
    },
  });

  route(app, deps, {
    endpoint: E.addLead,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ input, db, user, req }) => {
      const lead = await crmLead(db, crm, input.lead_id);
      if ((await leadStanding(db, lead.Id)).approved) throw new AppError('conflict', LOCKED);
      const form: LeadFormValues = { ...input, owner_name: input.owner_name ?? lead.Real_Owner_del__c };
      // A masked value sent back unchanged keeps the value the form was prefilled with, checked like a typed one.
      const filled = await prefill(db, lead);
      for (const field of LEAD_PII_FIELDS) {
        const sent = form[field];
        if (sent === null || !isMaskedValue(sent)) continue;
        const label = LEAD_FIELD_LABELS[field];
        const known = filled.values[field];
        if (known === null) throw badRequest(`${label}: type the full value`);
        if (maskLeadField(field, known) !== sent)
          throw badRequest(`${label}: type the full value (the masked one does not match the value on file)`);
        const problem = leadFieldProblem(field, known);
        if (problem) throw badRequest(`${label}: ${problem}`);
        (form as Record<LeadPiiField, string | null>)[field] = E.addLead.input.shape[field].parse(
          known,
        ) as string;
      }
      await saveForm(db, form, user.id);
      const step = stepAfterSave(await currentStep(db, lead.Id));
      await setStep(db, lead.Id, step);
      await audit(db, {
        actor: { id: user.id, email: user.email },
        action: 'lead.save',
        subject: `lead ${lead.Id}`,
        ip: ip(req),
        details: { description: `Saved the application of lead ${lead.Id} (${lead.Name})` },
      });
      return { success: true, message: 'Saved', step: stepAnswer(lead.Id, step) };
    },
  });

  route(app, deps, {
    endpoint: E.getCurrentStep,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ input, db }) => stepAnswer(input.lead_id, await currentStep(db, input.lead_id)),
  });

  route(app, deps, {
    endpoint: E.addCurrentStep,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ input, db, user, req }) => {
      const lead = await crmLead(db, crm, input.lead_id);
      const current = await currentStep(db, lead.Id);
      const standing = await leadStanding(db, lead.Id);
      const wanted = { current_step: input.current_step, completed: input.completed };
      const problem = stepChangeProblem(current, wanted, {
        formSaved: standing.formSaved,
        checksFinished: allAutomaticChecksFinished(await checkStates(db, lead.Id), new Date()),
        sentForApproval: standing.sentForApproval,
        decided: standing.decided,
      });
      if (problem) throw badRequest(problem);
      const next = applyStepChange(current, wanted);
      await setStep(db, lead.Id, next);
      await audit(db, {
        actor: { id: user.id, email: user.email },
        action: 'lead.step',
        subject: `lead ${lead.Id}`,
        ip: ip(req),
        details: {
          from: current,
          to: next,
          description: `Moved lead ${lead.Id} to step ${next.current_step}${next.completed ? ' (completed)' : ''}`,
        },
      });
      return stepAnswer(lead.Id, next);
    },
  });

  const checksAnswer = async (db: Db, leadId: string) => {
    const now = new Date();
    const states = await checkStates(db, leadId);
    return {
      lead_id: leadId,
      checks: states.map((c) => checkRow(c, now)),
      polling: shouldPollChecks(states, now),
    };
  };

  route(app, deps, {
    endpoint: E.getChecks,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ input, db }) => checksAnswer(db, input.lead_id),
  });

  route(app, deps, {
    endpoint: E.runChecks,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ input, db, user, req }) => {
      const lead = await crmLead(db, crm, input.lead_id);
      const standing = await leadStanding(db, lead.Id);
      if (standing.approved) throw new AppError('conflict', LOCKED);
      if (!standing.formSaved) throw badRequest('Save the lead form before running validations');
      const wanted: AutomaticCheck[] =
        input.check_name === 'All' ? [...AUTOMATIC_CHECKS] : [input.check_name];
      const now = new Date();
      const states = await checkStates(db, lead.Id);
      for (const check of wanted) {
        const state = states.find((s) => s.check_type === check);
        if (!state) continue;
        if (nextCheckStatus(effectiveCheckStatus(state, now), 'queue') === null)
          throw new AppError('conflict', `${check} is running; re-run it once it finishes or stops`);
        const run = state.run + 1;
        const values = {
          lead_id: lead.Id,
          check_type: check,
          runtime_status: 'initiated' as const,
          run,
          result: null,
          error_msg: null,
          document_name: null,
          provider: null,
          queued_at: now,
          started_at: null,
          finished_at: null,
          queued_by: user.id,
        };
        await db
          .insertInto('lead_checks')
          .values(values)
          .onConflict((oc) => oc.columns(['lead_id', 'check_type']).doUpdateSet(values))
          .execute();
        const job = deps.jobs.definition(CHECK_JOB_NAMES[check]);
        if (!job) throw new Error(`The ${check} check job is not declared on this server`);
        await deps.jobs.send(job, { leadId: lead.Id, run }, { db, startedBy: user.id });
      }
      await audit(db, {
        actor: { id: user.id, email: user.email },
        action: 'lead.check',
        subject: `lead ${lead.Id}`,
        ip: ip(req),
        details: { checks: wanted, description: `Ran ${wanted.join(', ')} for lead ${lead.Id}` },
      });
      return checksAnswer(db, lead.Id);
    },
  });

  route(app, deps, {
    endpoint: E.downloadDocument,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ input, db }) => {
      const applicationOf = leadOfApplicationDocument(input.document_name);
      if (applicationOf !== null) {
        const pdf = await applicationPdf(db, applicationOf);
        if (!pdf) throw notFound('No such document');
        return {
          document_name: input.document_name,
          content_type: 'application/pdf' as const,
          content: pdf.toString('base64'),
        };
      }
      const id = documentIdOf(input.document_name);
      if (id === null) throw notFound('No such document');
      const doc = await readDocument(db, id);
      if (!['lead_check', 'lead_upload'].includes(doc.kind)) throw notFound('No such document');
      if (documentName(doc.id, doc.filename) !== input.document_name) throw notFound('No such document');
      return {
        document_name: input.document_name,
        content_type: 'application/pdf' as const,
        content: doc.content.toString('base64'),
      };
    },
  });

  // Multipart (file, lead_id, check_name): declared without the endpoint's JSON handling, since a refused
  // LexisNexis upload must both mark the check stopped (committed) and answer 400.
  route(app, deps, {
    method: 'POST',
    url: E.uploadDocument.path,
    access: 'leads',
    scope: 'staffOnly',
    file: true,
    handler: async ({ file, db, user, req, reply, afterCommit }) => {
      const form = await readFormData(file ?? Buffer.alloc(0), req.headers['content-type']);
      const text = (name: string) => {
        const v = form.get(name);
        return typeof v === 'string' ? v : undefined;
      };
      const fields = E.uploadDocument.input.safeParse({
        lead_id: text('lead_id'),
        check_name: text('check_name'),
      });
      if (!fields.success) throw badRequest(fields.error.issues.map((i) => i.message).join('; '));
      const { lead_id, check_name } = fields.data;
      const lead = await crmLead(db, crm, lead_id);
      if ((await leadStanding(db, lead.Id)).approved) throw new AppError('conflict', LOCKED);
      const part = form.get('file');

      const refuse = async (message: string) => {
        if (check_name !== 'LexisNexis') throw badRequest(message);
        // Spec §8: a failed LexisNexis upload marks the check stopped.
        const values = {
          lead_id: lead.Id,
          check_type: 'LexisNexis' as const,
          runtime_status: 'stopped' as const,
          error_msg: message,
          finished_at: new Date(),
          queued_by: user.id,
        };
        await db
          .insertInto('lead_checks')
          .values(values)
          .onConflict((oc) => oc.columns(['lead_id', 'check_type']).doUpdateSet(values))
          .execute();
        await audit(db, {
          actor: { id: user.id, email: user.email },
          action: 'lead.upload',
          subject: `lead ${lead.Id}`,
          ip: ip(req),
          details: {
            check: 'LexisNexis',
            refused: message,
            description: `LexisNexis upload for lead ${lead.Id} refused: ${message}`,
          },
        });
        afterCommit(async () => {
          reply.code(400).send({ success: false, message });
        });
      };

      if (!(part instanceof File)) return refuse('Choose a PDF file to upload');
      if (!part.name.toLowerCase().endsWith('.pdf')) return refuse('Only a .pdf file can be uploaded');
      const bytes = Buffer.from(await part.arrayBuffer());
      try {
        checkDocument('application/pdf', bytes);
      } catch (err) {
        if (err instanceof AppError && err.code === 'bad_request') return refuse(err.message);
        throw err;
      }
      let name: string;
      if (check_name === 'Application') {
        const filename = cleanFilename(part.name, ['.pdf']);
        // Loaded when first used: pdf-lib is ~20 MB that no other request needs.
        const { readApplicationFields } = await import('./application');
        await saveApplication(db, lead.Id, { filename, bytes }, await readApplicationFields(bytes), user.id);
        name = applicationDocumentName(lead.Id);
      } else {
        const stored = await storeDocument(db, {
          owner: user.id,
          partnerId: null,
          kind: 'lead_upload',
          filename: part.name,
          contentType: 'application/pdf',
          bytes,
          // The report holds the applicant's personal data.
          encrypted: true,
        });
        name = documentName(stored.id, stored.filename);
        const [existing] = await db
          .selectFrom('lead_checks')
          .select(['document_name', 'runtime_status'])
          .where('lead_id', '=', lead.Id)
          .where('check_type', '=', 'LexisNexis')
          .execute();
        const kept =
          existing?.runtime_status === 'uploaded' ? splitDocumentNames(existing.document_name) : [];
        const values = {
          lead_id: lead.Id,
          check_type: 'LexisNexis' as const,
          runtime_status: 'uploaded' as const,
          error_msg: null,
          result: 'Report uploaded',
          document_name: joinDocumentNames([...kept, name]),
          started_at: null,
          finished_at: new Date(),
          queued_by: user.id,
        };
        await db
          .insertInto('lead_checks')
          .values(values)
          .onConflict((oc) => oc.columns(['lead_id', 'check_type']).doUpdateSet(values))
          .execute();
      }
      await audit(db, {
        actor: { id: user.id, email: user.email },
        action: 'lead.upload',
        subject: `lead ${lead.Id}`,
        ip: ip(req),
        details: {
          check: check_name,
          document: name,
          description: `Uploaded ${check_name === 'LexisNexis' ? 'the LexisNexis report' : 'the application PDF'} of lead ${lead.Id}`,
        },
      });
      return { document_name: name };
    },
  });

  route(app, deps, {
    endpoint: E.revealField,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ input, db, user, req }) => {
      const lead = await crmLead(db, crm, input.lead_id);
      const stored = await storedPii(db, lead.Id, input.field);
      if (stored === null) return { field: input.field, value: null };
      const value = await revealPii(db, {
        user,
        capability: 'leads',
        subject: `lead ${lead.Id}`,
        field: LEAD_FIELD_LABELS[input.field],
        stored,
        ip: ip(req),
      });
      return { field: input.field, value };
    },
  });

  // ---------------------------------------------------------------- approval

  route(app, deps, {
    endpoint: E.getUnderwriters,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ db }) => {
      const withCapability = (caps: ('leads' | 'underwriter')[]) =>
        db
          .selectFrom('users')
          .select('email')
          .where('active', '=', true)
          .where('partner_id', 'is', null)
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('user_capabilities as c')
                .select('c.user_id')
                .whereRef('c.user_id', '=', 'users.id')
                .where('c.capability', 'in', caps),
            ),
          )
          .orderBy('email')
          .execute();
      const people = (rows: { email: string }[]) =>
        rows.map((r) => ({ name: nameFromEmail(r.email), email: r.email }));
      return {
        underwriters: people(await withCapability(['underwriter'])),
        cc_users: people(await withCapability(['leads', 'underwriter'])),
      };
    },
  });

  route(app, deps, {
    endpoint: E.sendForApproval,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ input, db, user, req }) => {
      const lead = await crmLead(db, crm, input.lead_id);
      const standing = await leadStanding(db, lead.Id);
      if (standing.approved) throw new AppError('conflict', LOCKED);
      if (standing.decided)
        throw new AppError('conflict', 'The underwriter has already decided on this lead');
      if (standing.pending)
        throw new AppError('conflict', 'This lead is already waiting for an underwriter’s decision');
      const form = await savedForm(db, lead.Id);
      if (!form) throw badRequest('Save the lead form before sending it for approval');
      if (!allAutomaticChecksFinished(await checkStates(db, lead.Id), new Date()))
        throw badRequest('All four automatic checks must finish before sending for approval');
      const person = async (email: string, capability: 'underwriter' | 'cc') => {
        const row = await db
          .selectFrom('users')
          .select(['id', 'email'])
          .where('email', '=', email)
          .where('active', '=', true)
          .where('partner_id', 'is', null)
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('user_capabilities as c')
                .select('c.user_id')
                .whereRef('c.user_id', '=', 'users.id')
                .where(
                  'c.capability',
                  'in',
                  capability === 'underwriter' ? ['underwriter'] : ['leads', 'underwriter'],
                ),
            ),
          )
          .executeTakeFirst();
        if (!row)
          throw badRequest(
            capability === 'underwriter'
              ? 'Choose an underwriter from the list'
              : 'Choose the person to copy from the list',
          );
        return row.email;
      };
      const underwriter = await person(input.assigned_user, 'underwriter');
      const cc = input.cc_user === null ? null : await person(input.cc_user, 'cc');

      const token = randomBytes(32).toString('base64url');
      const now = new Date();
      const expires = new Date(now.getTime() + APPROVAL_LINK_LIFETIME_HOURS * 3_600_000);
      const uwName = nameFromEmail(underwriter);
      const inserted = await db
        .insertInto('lead_approvals')
        .values({
          lead_id: lead.Id,
          token_hash: tokenHash(token),
          assigned_user: underwriter,
          assigned_by: user.email,
          cc_user: cc,
          created_on: now,
          expires_on: expires,
          first_name: form.first_name,
          last_name: form.last_name,
          dba: form.dba,
          legal_name: form.legal_name,
          owner_name: form.owner_name ?? lead.Real_Owner_del__c,
          uw_name: uwName,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const link = `${deps.config.appUrl}${LEADS_APPROVAL_PAGE}?id=${token}`;
      const applicant = `${form.first_name} ${form.last_name}${form.dba ? ` (${form.dba})` : ''}`;
      const expiry = `${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
      const text = (intro: string) =>
        `${intro}\n\nApplicant: ${applicant}\nBusiness: ${form.legal_name}\nSent by: ${user.email}\n\n` +
        `Open this link to approve or reject:\n${link}\n\n` +
        `The link works for one decision and expires on ${expiry} (${APPROVAL_LINK_LIFETIME_HOURS} hours).`;
      await deps.mailer.send(db, {
        to: underwriter,
        subject: `Lead for your decision: ${form.dba ?? form.legal_name}`,
        text: text(`${uwName}, a merchant application is waiting for your decision.`),
        sentBy: user.id,
      });
      if (cc)
        await deps.mailer.send(db, {
          to: cc,
          subject: `Copy: lead sent to ${uwName} for a decision: ${form.dba ?? form.legal_name}`,
          text: text(`You are copied on a merchant application sent to ${uwName} (${underwriter}).`),
          sentBy: user.id,
        });
      await setStep(db, lead.Id, STEP_AFTER_SENDING);
      await audit(db, {
        actor: { id: user.id, email: user.email },
        action: 'lead.send',
        subject: `lead ${lead.Id}`,
        ip: ip(req),
        details: {
          approval: inserted.id,
          underwriter,
          cc,
          description: `Sent lead ${lead.Id} to ${underwriter} for a decision${cc ? `, copying ${cc}` : ''}`,
        },
      });
      const [approval] = await approvals(db, lead.Id);
      if (!approval) throw new Error('The approval just written is missing');
      return {
        success: true,
        message: `Sent to ${uwName}`,
        approval: await approvalAnswer(crm, approval),
        step: stepAnswer(lead.Id, STEP_AFTER_SENDING),
      };
    },
  });

  route(app, deps, {
    endpoint: E.getApprovals,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ db }) => ({
      approvals: await Promise.all((await approvals(db)).map((a) => approvalAnswer(crm, a))),
    }),
  });

  route(app, deps, {
    endpoint: E.getLeadApproval,
    access: 'leads',
    scope: 'staffOnly',
    handler: async ({ input, db }) => {
      const [latest] = await approvals(db, input.lead_id);
      return { approval: latest ? await approvalAnswer(crm, latest) : null };
    },
  });

  // The underwriter's link: no session, only the token. A used, expired or unknown token answers the same 404.
  const openApproval = async (db: Db, token: string, lock: boolean) => {
    let q = db
      .selectFrom('lead_approvals')
      .select([
        'id',
        'lead_id',
        'first_name',
        'last_name',
        'dba',
        'legal_name',
        'owner_name',
        'uw_name',
        'assigned_user',
        'created_on',
        'expires_on',
      ])
      .where('token_hash', '=', tokenHash(token))
      .where('approved', 'is', null)
      .where('expires_on', '>', new Date());
    if (lock) q = q.forUpdate();
    const row = await q.executeTakeFirst();
    if (!row) throw notFound(APPROVAL_PAGE_TEXT.invalid);
    return row;
  };

  route(app, deps, {
    endpoint: E.getApproval,
    access: 'public',
    scope: 'publicToken',
    rateLimit: 'leadApproval',
    handler: async ({ input, db }) => {
      const a = await openApproval(db, input.app_id, false);
      const checks = await db
        .selectFrom('lead_checks')
        .select(['check_type', 'runtime_status', 'result', 'started_at'])
        .where('lead_id', '=', a.lead_id)
        .execute();
      const now = new Date();
      return {
        first_name: a.first_name,
        last_name: a.last_name,
        dba: a.dba,
        legal_name: a.legal_name,
        owner_name: a.owner_name,
        uw_name: a.uw_name,
        created_on: a.created_on,
        expires_on: a.expires_on,
        checks: CHECK_TYPES.flatMap((type) =>
          checks
            .filter((c) => c.check_type === type)
            .map((c) => ({
              check_type: c.check_type,
              runtime_status: effectiveCheckStatus(c, now),
              result: c.result,
            })),
        ),
      };
    },
  });

  route(app, deps, {
    endpoint: E.approve,
    access: 'public',
    scope: 'publicToken',
    rateLimit: 'leadApproval',
    handler: async ({ input, db, req }) => {
      const a = await openApproval(db, input.app_id, true);
      if (input.lead_id !== undefined && input.lead_id !== a.lead_id)
        throw notFound(APPROVAL_PAGE_TEXT.invalid);
      const accountId = input.approved ? await crm.convertLead(db, a.lead_id) : null;
      await db
        .updateTable('lead_approvals')
        .set({
          approved: input.approved ? 1 : 0,
          comment: input.comment,
          decided_on: new Date(),
          account_id: accountId,
        })
        .where('id', '=', a.id)
        .execute();
      await db
        .updateTable('lead_steps')
        .set({ ...STEP_AFTER_DECISION, updated_at: new Date() })
        .where('lead_id', '=', a.lead_id)
        .execute();
      await audit(db, {
        actor: null,
        action: 'lead.decision',
        subject: `lead ${a.lead_id}`,
        ip: ip(req),
        details: {
          approval: a.id,
          approved: input.approved,
          underwriter: a.assigned_user,
          accountId,
          description: `${a.assigned_user} ${input.approved ? 'approved' : 'rejected'} lead ${a.lead_id} through the e-mailed link${accountId ? `; converted to CRM account ${accountId}` : ''}`,
        },
      });
      return { success: true, message: APPROVAL_PAGE_TEXT.sent };
    },
  });
}
