import { describe, expect, it } from 'vitest';
import {
  allAutomaticChecksFinished,
  CHECK_STALE_AFTER_MS,
  canRerun,
  checkErrorText,
  effectiveCheckStatus,
  nextCheckStatus,
  shouldPollChecks,
} from './checks';
import {
  ddaProblem,
  dobProblem,
  LEAD_REQUIRED_FIELDS,
  leadFieldProblem,
  leadFormSchema,
  phoneProblem,
  routingNumberProblem,
  ssnProblem,
  stateProblem,
  tinProblem,
  zipProblem,
} from './form';
import { maskLeadField, prefillLeadForm } from './prefill';
import { applyStepChange, canOpenStep, type LeadFacts, stepChangeProblem } from './steps';

const validForm = {
  lead_id: '00Q000000000001AAA',
  first_name: 'Maria',
  last_name: 'Lopez',
  ssn: '123-45-6789',
  dob: '1980-04-25',
  home_address: '12 Elm St',
  home_city: 'Austin',
  home_state: 'tx',
  home_zip: '78701',
  legal_name: 'Lopez Bakery LLC',
  business_address_1: '400 Main St',
  business_city: 'Austin',
  business_state: 'TX',
  business_zip: '78701-1234',
  aba_number: '021000021',
  dda_number: '000123456789',
};

describe('lead form rules', () => {
  it('accepts a complete form and normalises its values', () => {
    const parsed = leadFormSchema.parse({ ...validForm, iso_split: '12.5', email: '', tin: '12-3456789' });
    expect(parsed.ssn).toBe('123456789');
    expect(parsed.home_state).toBe('TX');
    expect(parsed.tin).toBe('123456789');
    expect(parsed.iso_split).toBe(12.5);
    expect(parsed.email).toBeNull();
    expect(parsed.aba_number).toBe('021000021');
  });

  it('requires every required field of spec §5, each with its own message', () => {
    for (const field of LEAD_REQUIRED_FIELDS) {
      const result = leadFormSchema.safeParse({ ...validForm, [field]: '' });
      expect(result.success, field).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual([field]);
      expect(result.error?.issues[0]?.message).toMatch(/required/);
    }
  });

  it('leaves the optional fields optional', () => {
    const result = leadFormSchema.safeParse(validForm);
    expect(result.success).toBe(true);
    expect(result.data?.tin).toBeNull();
    expect(result.data?.sales_agent).toBeNull();
  });

  it('checks SSNs', () => {
    expect(ssnProblem('123-45-6789')).toBeNull();
    expect(ssnProblem('123456789')).toBeNull();
    expect(ssnProblem('12345678')).toMatch(/9 digits/);
    expect(ssnProblem('000-12-3456')).toMatch(/first 3/);
    expect(ssnProblem('666-12-3456')).toMatch(/first 3/);
    expect(ssnProblem('912-12-3456')).toMatch(/first 3/);
    expect(ssnProblem('123-00-4567')).toMatch(/middle/);
    expect(ssnProblem('123-45-0000')).toMatch(/last 4/);
  });

  it('checks TINs', () => {
    expect(tinProblem('12-3456789')).toBeNull();
    expect(tinProblem('1234567')).toMatch(/9 digits/);
    expect(tinProblem('00-1234567')).toMatch(/00/);
  });

  it('checks the routing number’s check digit and district', () => {
    // Real routing numbers: JPMorgan Chase NY, Bank of America, Wells Fargo.
    for (const good of ['021000021', '026009593', '121000248']) expect(routingNumberProblem(good)).toBeNull();
    expect(routingNumberProblem('021000022')).toMatch(/check digit/);
    expect(routingNumberProblem('12345678')).toMatch(/9 digits/);
    // 500000005 passes the weighted sum (3·5 + 5 = 20) but 50 is no Federal Reserve district.
    expect(routingNumberProblem('500000005')).toMatch(/district/);
  });

  it('checks DDA numbers, ZIPs, states, phones', () => {
    expect(ddaProblem('1234')).toBeNull();
    expect(ddaProblem('123')).toMatch(/4 to 17/);
    expect(ddaProblem('123456789012345678')).toMatch(/4 to 17/);
    expect(ddaProblem('12ab34')).toMatch(/digits only/);
    expect(zipProblem('78701')).toBeNull();
    expect(zipProblem('78701-1234')).toBeNull();
    expect(zipProblem('7870')).toMatch(/5 digits/);
    expect(zipProblem('78701-12')).toMatch(/5 digits/);
    expect(stateProblem('ny')).toBeNull();
    expect(stateProblem('XX')).toMatch(/two-letter/);
    expect(phoneProblem('(212) 555-0123')).toBeNull();
    expect(phoneProblem('+1 212 555 0123')).toBeNull();
    expect(phoneProblem('555-0123')).toMatch(/10 digits/);
    expect(phoneProblem('(112) 555-0123')).toMatch(/not a valid/);
  });

  it('checks dates of birth against the day given', () => {
    const today = new Date('2026-11-23T12:00:00Z');
    expect(dobProblem('1980-04-25', today)).toBeNull();
    expect(dobProblem('2008-11-23', today)).toBeNull();
    expect(dobProblem('2008-11-24', today)).toMatch(/18/);
    expect(dobProblem('1980-02-30', today)).toMatch(/date like/);
    expect(dobProblem('04/25/1980', today)).toMatch(/date like/);
    expect(dobProblem('1900-01-01', today)).toMatch(/120/);
  });

  it('gives one field’s message alone, for the web form', () => {
    expect(leadFieldProblem('aba_number', '021000022')).toMatch(/check digit/);
    expect(leadFieldProblem('aba_number', '021000021')).toBeNull();
    expect(leadFieldProblem('email', 'not-an-email')).toMatch(/valid e-mail/);
    expect(leadFieldProblem('iso_split', '101')).toMatch(/at most 100/);
    expect(leadFieldProblem('years_industry', '2.5')).toMatch(/whole number/);
  });

  it('accepts a masked sensitive value unchanged (keep the prefilled one), and nothing else masked', () => {
    const parsed = leadFormSchema.parse({ ...validForm, ssn: '•••-••-6789', dda_number: '••••6789' });
    expect(parsed.ssn).toBe('•••-••-6789');
    expect(leadFieldProblem('home_zip', '•••••')).not.toBeNull();
  });

  it('refuses unknown fields', () => {
    expect(leadFormSchema.safeParse({ ...validForm, favourite_colour: 'blue' }).success).toBe(false);
  });
});

describe('check state machine', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

  it('moves initiated → started → finished | stopped', () => {
    expect(nextCheckStatus(null, 'queue')).toBe('initiated');
    expect(nextCheckStatus('initiated', 'start')).toBe('started');
    expect(nextCheckStatus('started', 'finish')).toBe('finished');
    expect(nextCheckStatus('started', 'fail')).toBe('stopped');
    expect(nextCheckStatus('initiated', 'fail')).toBe('stopped');
    expect(nextCheckStatus('initiated', 'finish')).toBeNull();
    expect(nextCheckStatus('finished', 'start')).toBeNull();
    expect(nextCheckStatus('started', 'queue')).toBeNull();
    expect(nextCheckStatus('finished', 'queue')).toBe('initiated');
    expect(nextCheckStatus('stopped', 'queue')).toBe('initiated');
  });

  it('offers Re-run on initiated, finished and stopped only', () => {
    expect(['initiated', 'finished', 'stopped'].every((s) => canRerun(s as never))).toBe(true);
    expect(canRerun('started')).toBe(false);
    expect(canRerun(null)).toBe(false);
  });

  it('counts a check started more than 15 minutes ago as stopped', () => {
    expect(
      effectiveCheckStatus({ runtime_status: 'started', started_at: ago(CHECK_STALE_AFTER_MS) }, now),
    ).toBe('started');
    const stale = {
      runtime_status: 'started' as const,
      started_at: ago(CHECK_STALE_AFTER_MS + 1),
      error_msg: null,
    };
    expect(effectiveCheckStatus(stale, now)).toBe('stopped');
    expect(checkErrorText(stale, now)).toMatch(/15 minutes/);
    expect(nextCheckStatus(effectiveCheckStatus(stale, now), 'queue')).toBe('initiated');
    expect(checkErrorText({ runtime_status: 'stopped', started_at: null, error_msg: null }, now)).toBe(
      'Unknown error',
    );
  });

  it('polls while a check is started, and stops on any mix of finished, stopped and initiated', () => {
    const c = (runtime_status: 'initiated' | 'started' | 'finished' | 'stopped', started = ago(1000)) => ({
      runtime_status,
      started_at: started,
    });
    expect(shouldPollChecks([c('finished'), c('started')], now)).toBe(true);
    expect(shouldPollChecks([c('finished'), c('stopped'), c('initiated')], now)).toBe(false);
    expect(shouldPollChecks([c('started', ago(CHECK_STALE_AFTER_MS + 1))], now)).toBe(false);
  });

  it('completes Run Validations only when all four automatic checks finished', () => {
    const checks = ['DataX', 'Match', 'TinCheck', 'Giact'].map((check_type) => ({
      check_type,
      runtime_status: 'finished' as const,
      started_at: ago(1000),
    }));
    expect(allAutomaticChecksFinished(checks, now)).toBe(true);
    expect(allAutomaticChecksFinished(checks.slice(1), now)).toBe(false);
    expect(
      allAutomaticChecksFinished(
        [
          ...checks.slice(1),
          { check_type: 'DataX', runtime_status: 'stopped' as const, started_at: ago(1000) },
        ],
        now,
      ),
    ).toBe(false);
  });
});

describe('step rules', () => {
  const facts = (f: Partial<LeadFacts> = {}): LeadFacts => ({
    formSaved: false,
    checksFinished: false,
    sentForApproval: false,
    decided: false,
    ...f,
  });

  it('opens steps only up to the current one', () => {
    expect(canOpenStep({ current_step: 1, completed: false }, 1)).toBe(true);
    expect(canOpenStep({ current_step: 1, completed: false }, 0)).toBe(true);
    expect(canOpenStep({ current_step: 1, completed: true }, 2)).toBe(false);
  });

  it('needs a saved form for step 1 and finished checks to complete it', () => {
    const start = { current_step: 0 as const, completed: false };
    expect(stepChangeProblem(start, { current_step: 1, completed: false }, facts())).toMatch(
      /Save the lead form/,
    );
    expect(
      stepChangeProblem(start, { current_step: 1, completed: false }, facts({ formSaved: true })),
    ).toBeNull();
    expect(
      stepChangeProblem(start, { current_step: 1, completed: true }, facts({ formSaved: true })),
    ).toMatch(/DataX/);
  });

  it('moves to Send for Approval only after the checks, and never marks sending done by asking', () => {
    const one = { current_step: 1 as const, completed: true };
    const ready = facts({ formSaved: true, checksFinished: true });
    expect(stepChangeProblem(one, { current_step: 2, completed: false }, facts({ formSaved: true }))).toMatch(
      /four automatic checks/,
    );
    expect(stepChangeProblem(one, { current_step: 2, completed: false }, ready)).toBeNull();
    expect(stepChangeProblem(one, { current_step: 2, completed: true }, ready)).toMatch(/underwriter/);
    expect(stepChangeProblem(one, { current_step: 3, completed: false }, ready)).toMatch(/underwriter/);
  });

  it('never goes back, never changes after the decision, never un-completes', () => {
    const two = { current_step: 2 as const, completed: false };
    expect(stepChangeProblem(two, { current_step: 1, completed: false }, facts({ formSaved: true }))).toMatch(
      /go back/,
    );
    expect(stepChangeProblem(two, { current_step: 2, completed: false }, facts({ decided: true }))).toMatch(
      /decided/,
    );
    expect(
      applyStepChange({ current_step: 1, completed: true }, { current_step: 1, completed: false }),
    ).toEqual({
      current_step: 1,
      completed: true,
    });
  });
});

describe('prefill order and masking', () => {
  it('takes saved data first, then the application PDF, then the CRM, field by field', () => {
    const { values, sources } = prefillLeadForm({
      saved: { first_name: 'Saved', last_name: null, email: '' },
      application: { first_name: 'FromPdf', last_name: 'PdfLast', dba: 'Pdf DBA' },
      crm: { first_name: 'Crm', last_name: 'CrmLast', email: 'crm@example.com', phone: '2125550123' },
    });
    expect(values.first_name).toBe('Saved');
    expect(sources.first_name).toBe('saved');
    expect(values.last_name).toBe('PdfLast');
    expect(sources.last_name).toBe('application');
    expect(values.email).toBe('crm@example.com');
    expect(sources.email).toBe('crm');
    expect(values.ssn).toBeNull();
    expect(sources.ssn).toBeNull();
  });

  it('masks every sensitive field and keeps nothing of a birth date', () => {
    expect(maskLeadField('ssn', '123456789')).toBe('•••-••-6789');
    expect(maskLeadField('tin', '123456789')).toBe('••-•••6789');
    expect(maskLeadField('aba_number', '021000021')).toBe('•••••0021');
    expect(maskLeadField('dda_number', '000123456789')).toBe('••••6789');
    expect(maskLeadField('dob', '1980-04-25')).toBe('••••-••-••');
    expect(maskLeadField('ssn', null)).toBeNull();
  });
});
