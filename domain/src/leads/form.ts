import '../zodConfig';
import { z } from 'zod';

/**
 * The lead form (spec document 3 §3 "Lead form values", §5): the merchant's application as the RM fills it in.
 * One schema for both sides: the web shows its messages next to the fields, the server refuses a save that does
 * not pass it. Values are normalised as they are parsed (digits only for SSN, TIN, routing and DDA numbers,
 * upper-case state codes), so what is stored and compared is always the same form.
 *
 * SSN, DOB, TIN, routing (aba_number) and DDA numbers are sensitive (LEAD_PII_FIELDS): the server stores them
 * encrypted, answers them masked, and a Leads user reveals one field at a time (audited). A form sent back with a
 * masked value unchanged (it contains "•") means "keep the value the form was prefilled with"; the server
 * resolves it and refuses it when there is nothing to keep.
 */

export const LEAD_FORM_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'ssn',
  'dob',
  'home_address',
  'home_city',
  'home_state',
  'home_zip',
  'dba',
  'legal_name',
  'iso_split',
  'tin',
  'business_type',
  'business_email',
  'business_phone',
  'business_address_1',
  'business_address_2',
  'business_city',
  'business_state',
  'business_zip',
  'aba_number',
  'dda_number',
  'sales_agent',
  'years_industry',
  'owner_name',
] as const;
export type LeadFormField = (typeof LEAD_FORM_FIELDS)[number];

/** The fields stored encrypted, masked in every answer and revealed only one at a time. */
export const LEAD_PII_FIELDS = ['ssn', 'dob', 'tin', 'aba_number', 'dda_number'] as const;
export type LeadPiiField = (typeof LEAD_PII_FIELDS)[number];
export const isLeadPiiField = (field: string): field is LeadPiiField =>
  (LEAD_PII_FIELDS as readonly string[]).includes(field);

/** Labels as the spec names them (§5); the web's form uses them, and so do the messages below. */
export const LEAD_FIELD_LABELS: Record<LeadFormField, string> = {
  first_name: 'First Name',
  last_name: 'Last Name',
  email: 'Email',
  phone: 'Phone',
  ssn: 'SSN',
  dob: 'DOB',
  home_address: 'Home Address',
  home_city: 'City',
  home_state: 'State',
  home_zip: 'Zip Code',
  dba: 'DBA',
  legal_name: 'Legal Name',
  iso_split: 'ISO Split',
  tin: 'TIN',
  business_type: 'Type of Business',
  business_email: 'Business Email',
  business_phone: 'Business Phone',
  business_address_1: 'Business Address 1',
  business_address_2: 'Business Address 2',
  business_city: 'Business City',
  business_state: 'Business State',
  business_zip: 'Business Zip Code',
  aba_number: 'Routing Number',
  dda_number: 'DDA Number',
  sales_agent: 'No of Sales Agents',
  years_industry: 'Years In Industry',
  owner_name: 'Owner',
};

/** Spec §5: save is blocked unless each of these has a valid value. */
export const LEAD_REQUIRED_FIELDS = [
  'first_name',
  'last_name',
  'ssn',
  'dob',
  'home_address',
  'home_city',
  'home_state',
  'home_zip',
  'legal_name',
  'business_address_1',
  'business_city',
  'business_state',
  'business_zip',
  'aba_number',
  'dda_number',
] as const satisfies readonly LeadFormField[];

export const isLeadRequiredField = (field: LeadFormField) =>
  (LEAD_REQUIRED_FIELDS as readonly LeadFormField[]).includes(field);

/** US states, DC and the inhabited territories, by their USPS codes. */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'DC',
  'PR',
  'VI',
  'GU',
  'AS',
  'MP',
] as const;

/** A masked value sent back unchanged: "keep what the form was prefilled with". */
export const MASK_DOT = '•';
export const isMaskedValue = (value: string) => value.includes(MASK_DOT);

const digitsOf = (value: string) => value.replace(/[\s-]/g, '');

// ---------------------------------------------------------------- single rules (pure; each returns a message or null)

/**
 * An SSN: nine digits, written 123-45-6789 or 123456789. The SSA never issues area 000, 666 or 900–999, group 00
 * or serial 0000, so those are typos.
 */
export function ssnProblem(value: string): string | null {
  const d = digitsOf(value);
  if (!/^\d{9}$/.test(d)) return 'SSN must be 9 digits, like 123-45-6789';
  const area = d.slice(0, 3);
  if (area === '000' || area === '666' || area.startsWith('9'))
    return 'This is not a valid SSN (the first 3 digits are never issued)';
  if (d.slice(3, 5) === '00') return 'This is not a valid SSN (the middle 2 digits cannot be 00)';
  if (d.slice(5) === '0000') return 'This is not a valid SSN (the last 4 digits cannot be 0000)';
  return null;
}

/** A TIN (an EIN): nine digits, written 12-3456789 or 123456789; the IRS never uses the prefix 00. */
export function tinProblem(value: string): string | null {
  const d = digitsOf(value);
  if (!/^\d{9}$/.test(d)) return 'TIN must be 9 digits, like 12-3456789';
  if (d.startsWith('00')) return 'This is not a valid TIN (it cannot start with 00)';
  return null;
}

/**
 * An ABA routing number: nine digits whose weighted sum 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple
 * of 10, and whose first two digits name a Federal Reserve district (00–12, 21–32 for thrifts, 61–72 for
 * electronic, 80 for traveller's cheques).
 */
export function routingNumberProblem(value: string): string | null {
  const d = digitsOf(value);
  if (!/^\d{9}$/.test(d)) return 'Routing number must be 9 digits';
  const prefix = Number(d.slice(0, 2));
  const district =
    prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
  if (!district)
    return 'This is not a valid routing number (its first 2 digits are not a Federal Reserve district)';
  const n = [...d].map(Number) as number[];
  const sum =
    3 * ((n[0] ?? 0) + (n[3] ?? 0) + (n[6] ?? 0)) +
    7 * ((n[1] ?? 0) + (n[4] ?? 0) + (n[7] ?? 0)) +
    ((n[2] ?? 0) + (n[5] ?? 0) + (n[8] ?? 0));
  if (sum % 10 !== 0) return 'This is not a valid routing number (its check digit does not match)';
  return null;
}

/** A checking (DDA) account number: 4 to 17 digits (17 is the NACHA limit). */
export function ddaProblem(value: string): string | null {
  const d = digitsOf(value);
  if (!/^\d+$/.test(d)) return 'DDA number must contain digits only';
  if (d.length < 4 || d.length > 17) return 'DDA number must be 4 to 17 digits';
  return null;
}

/** A US ZIP code: 12345 or 12345-6789. */
export function zipProblem(value: string): string | null {
  return /^\d{5}(-\d{4})?$/.test(value.trim()) ? null : 'Zip code must be 5 digits, or 5+4 like 12345-6789';
}

export function stateProblem(value: string): string | null {
  return (US_STATES as readonly string[]).includes(value.trim().toUpperCase())
    ? null
    : 'Use a two-letter US state code, like NY';
}

/** A US phone number: 10 digits, optionally with a leading 1 or +1 and the usual separators. */
export function phoneProblem(value: string): string | null {
  const d = value.replace(/[\s().+-]/g, '');
  if (!/^\d+$/.test(d)) return 'Phone must be a US number, like (212) 555-0123';
  const ten = d.length === 11 && d.startsWith('1') ? d.slice(1) : d;
  if (ten.length !== 10) return 'Phone must have 10 digits, like (212) 555-0123';
  if (ten.startsWith('0') || ten.startsWith('1')) return 'This is not a valid US phone number';
  return null;
}

/** A calendar date written YYYY-MM-DD, or null if it is not one. */
export function parseIsoDay(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value.trim() ? date : null;
}

/** A date of birth: a real date, the applicant at least 18 and at most 120 years old on `today`. */
export function dobProblem(value: string, today: Date): string | null {
  const dob = parseIsoDay(value);
  if (!dob) return 'DOB must be a date like 1980-04-25';
  const y = today.getUTCFullYear();
  const adult = new Date(Date.UTC(y - 18, today.getUTCMonth(), today.getUTCDate()));
  const oldest = new Date(Date.UTC(y - 120, today.getUTCMonth(), today.getUTCDate()));
  if (dob > adult) return 'The applicant must be at least 18 years old';
  if (dob < oldest) return 'DOB is more than 120 years ago';
  return null;
}

// ---------------------------------------------------------------- the schema

const blankToNull = (v: unknown) =>
  v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v;

const textRule = (field: LeadFormField, max: number) => {
  const label = LEAD_FIELD_LABELS[field];
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} is at most ${max} characters`);
};
const requiredText = (field: LeadFormField, max = 200) =>
  z.preprocess(
    blankToNull,
    z
      .string({ error: `${LEAD_FIELD_LABELS[field]} is required` })
      .meta(example(field))
      .pipe(textRule(field, max)),
  );
const optionalText = (field: LeadFormField, max = 200) =>
  z.preprocess(blankToNull, textRule(field, max).meta(example(field)).nullable());

/** A field checked by a rule; normalise turns the accepted value into its stored form. */
const ruleOf = (
  field: LeadFormField,
  problem: (value: string) => string | null,
  normalise: (value: string) => string,
  opts: { maskable?: boolean },
) =>
  z
    .string({
      error: (issue) =>
        issue.input === null || issue.input === undefined
          ? `${LEAD_FIELD_LABELS[field]} is required`
          : `${LEAD_FIELD_LABELS[field]} must be text`,
    })
    .max(60, `${LEAD_FIELD_LABELS[field]} is too long`)
    .meta(example(field))
    .transform((value, ctx) => {
      if (opts.maskable && isMaskedValue(value)) return value;
      const message = problem(value);
      if (message) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return normalise(value);
    });
const requiredRuled = (
  field: LeadFormField,
  problem: (value: string) => string | null,
  normalise: (value: string) => string,
  opts: { maskable?: boolean } = {},
) => z.preprocess(blankToNull, ruleOf(field, problem, normalise, opts));
const optionalRuled = (
  field: LeadFormField,
  problem: (value: string) => string | null,
  normalise: (value: string) => string,
  opts: { maskable?: boolean } = {},
) => z.preprocess(blankToNull, ruleOf(field, problem, normalise, opts).meta(example(field)).nullable());

const wholeNumber = (field: LeadFormField, max: number) => {
  const label = LEAD_FIELD_LABELS[field];
  return z.preprocess(
    blankToNull,
    z.coerce
      .number({ error: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .min(0, `${label} cannot be negative`)
      .max(max, `${label} is at most ${max}`)
      .nullable(),
  );
};

const emailField = (field: LeadFormField) => {
  const label = LEAD_FIELD_LABELS[field];
  return z.preprocess(
    blankToNull,
    z
      .string()
      .trim()
      .max(254, `${label} is too long`)
      .pipe(z.email({ error: `${label} must be a valid e-mail address` }))
      .transform((v) => v.toLowerCase())
      .nullable(),
  );
};

const onlyDigits = (v: string) => v.replace(/\D/g, '');
const upper = (v: string) => v.trim().toUpperCase();
const formatPhone = (v: string) => {
  const d = onlyDigits(v);
  const ten = d.length === 11 ? d.slice(1) : d;
  return `(${ten.slice(0, 3)}) ${ten.slice(3, 6)}-${ten.slice(6)}`;
};

/** A valid value of each field, for the API reference and generated test inputs. */
export const LEAD_FIELD_EXAMPLES: Record<LeadFormField | 'lead_id', string> = {
  lead_id: '00QSBX000000000001',
  first_name: 'Maria',
  last_name: 'Lopez',
  email: 'maria@lopezbakery.example',
  phone: '(512) 555-0142',
  ssn: '123-45-6789',
  dob: '1980-04-25',
  home_address: '12 Elm St',
  home_city: 'Austin',
  home_state: 'TX',
  home_zip: '78701',
  dba: 'Lopez Bakery',
  legal_name: 'Lopez Bakery LLC',
  iso_split: '10',
  tin: '12-3456789',
  business_type: 'Bakery',
  business_email: 'office@lopezbakery.example',
  business_phone: '(512) 555-0199',
  business_address_1: '400 Main St',
  business_address_2: 'Suite 2',
  business_city: 'Austin',
  business_state: 'TX',
  business_zip: '78701-1234',
  aba_number: '021000021',
  dda_number: '000123456789',
  sales_agent: '2',
  years_industry: '5',
  owner_name: 'Dana Whitfield',
};
const example = (field: LeadFormField | 'lead_id') => ({ examples: [LEAD_FIELD_EXAMPLES[field]] });

/** The lead id as the CRM writes it (a Salesforce id is 15 or 18 letters and digits). */
export const leadId = z
  .string({ error: 'lead_id is required' })
  .trim()
  .min(1, 'lead_id is required')
  .max(40, 'lead_id is too long')
  .regex(/^[A-Za-z0-9]+$/, 'lead_id is letters and digits only')
  .meta(example('lead_id'));

const leadFormShape = {
  lead_id: leadId,
  first_name: requiredText('first_name', 100),
  last_name: requiredText('last_name', 100),
  email: emailField('email'),
  phone: optionalRuled('phone', phoneProblem, formatPhone),
  ssn: requiredRuled('ssn', ssnProblem, onlyDigits, { maskable: true }),
  dob: requiredRuled(
    'dob',
    (v) => dobProblem(v, new Date()),
    (v) => v.trim(),
    { maskable: true },
  ),
  home_address: requiredText('home_address'),
  home_city: requiredText('home_city', 100),
  home_state: requiredRuled('home_state', stateProblem, upper),
  home_zip: requiredRuled('home_zip', zipProblem, (v) => v.trim()),
  dba: optionalText('dba'),
  legal_name: requiredText('legal_name'),
  iso_split: z.preprocess(
    blankToNull,
    z.coerce
      .number({ error: 'ISO Split must be a number' })
      .min(0, 'ISO Split cannot be negative')
      .max(100, 'ISO Split is a percentage, at most 100')
      .refine((n) => Math.round(n * 100) === n * 100, 'ISO Split has at most 2 decimals')
      .nullable(),
  ),
  tin: optionalRuled('tin', tinProblem, onlyDigits, { maskable: true }),
  business_type: optionalText('business_type', 100),
  business_email: emailField('business_email'),
  business_phone: optionalRuled('business_phone', phoneProblem, formatPhone),
  business_address_1: requiredText('business_address_1'),
  business_address_2: optionalText('business_address_2'),
  business_city: requiredText('business_city', 100),
  business_state: requiredRuled('business_state', stateProblem, upper),
  business_zip: requiredRuled('business_zip', zipProblem, (v) => v.trim()),
  aba_number: requiredRuled('aba_number', routingNumberProblem, onlyDigits, { maskable: true }),
  dda_number: requiredRuled('dda_number', ddaProblem, onlyDigits, { maskable: true }),
  sales_agent: wholeNumber('sales_agent', 100_000),
  years_industry: wholeNumber('years_industry', 100),
  owner_name: optionalText('owner_name', 200),
};

/**
 * The form's schema. DOB is checked against the day it is parsed (at least 18 years old); everything else is
 * pure. `.shape[field]` checks one field alone, which is how the web shows a message as the RM types.
 */
export const leadFormSchema = z.strictObject(leadFormShape);

/** What the form holds once parsed: normalised values, null for an empty optional field. */
export type LeadFormValues = z.output<typeof leadFormSchema>;
/** What a client sends (text from inputs; numbers may be text). */
export type LeadFormInput = z.input<typeof leadFormSchema>;

/** One field's message for the value typed, or null when it is fine (the web shows it under the field). */
export function leadFieldProblem(field: LeadFormField, value: unknown): string | null {
  const result = leadFormSchema.shape[field].safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid value');
}
