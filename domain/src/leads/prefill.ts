import { maskAccountNumber, maskRoutingNumber, maskSsn } from '../mask';
import { LEAD_FORM_FIELDS, type LeadFormField, type LeadPiiField, MASK_DOT } from './form';

/**
 * Where the form's first values come from (spec document 3 §2.4): the lead data saved in PayDesk first, then the
 * fields of the merchant's application PDF uploaded for the lead (its AcroForm fields, read on the server), then
 * what the CRM knows of the lead. Per field, the first source that has a value wins.
 */
export const PREFILL_SOURCES = ['saved', 'application', 'crm'] as const;
export type PrefillSource = (typeof PREFILL_SOURCES)[number];

export type PartialForm = Partial<Record<LeadFormField, string | null>>;

export interface Prefilled {
  values: Record<LeadFormField, string | null>;
  /** Which source each value came from; null when none had one. */
  sources: Record<LeadFormField, PrefillSource | null>;
}

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

export function prefillLeadForm(sources: Partial<Record<PrefillSource, PartialForm | null>>): Prefilled {
  const values = {} as Record<LeadFormField, string | null>;
  const from = {} as Record<LeadFormField, PrefillSource | null>;
  for (const field of LEAD_FORM_FIELDS) {
    values[field] = null;
    from[field] = null;
    for (const source of PREFILL_SOURCES) {
      const value = sources[source]?.[field];
      if (present(value)) {
        values[field] = value;
        from[field] = source;
        break;
      }
    }
  }
  return { values, sources: from };
}

/**
 * A sensitive field as every answer shows it: SSN "•••-••-6789", routing "•••••6789", DDA "••••6789", TIN
 * "••-•••6789", DOB "••••-••-••" (nothing of a birth date is shown). Empty stays empty, so the form can tell a
 * missing value from a hidden one.
 */
export function maskLeadField(field: LeadPiiField, value: string | null): string | null {
  if (value === null || value === '') return value;
  switch (field) {
    case 'ssn':
      return maskSsn(value);
    case 'aba_number':
      return maskRoutingNumber(value);
    case 'dda_number':
      return maskAccountNumber(value);
    case 'tin': {
      const d = value.replace(/\D/g, '');
      return d.length === 9
        ? `${MASK_DOT.repeat(2)}-${MASK_DOT.repeat(3)}${d.slice(-4)}`
        : MASK_DOT.repeat(d.length);
    }
    case 'dob':
      return `${MASK_DOT.repeat(4)}-${MASK_DOT.repeat(2)}-${MASK_DOT.repeat(2)}`;
  }
}

/** An SSN as people write it: "123-45-6789" (stored as nine digits). */
export const formatSsn = (digits: string) =>
  /^\d{9}$/.test(digits) ? `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}` : digits;
/** A TIN (EIN) as people write it: "12-3456789". */
export const formatTin = (digits: string) =>
  /^\d{9}$/.test(digits) ? `${digits.slice(0, 2)}-${digits.slice(2)}` : digits;
