import type { AutomaticCheck, LeadFormValues } from '@paydesk/domain';

/**
 * An underwriting check provider: given the applicant (the saved lead form, sensitive numbers in clear, in
 * memory only), it answers a verdict. A provider never logs or stores what it is given; what it answers is
 * shown to staff and written into the result PDF, so it names no full SSN, TIN or account number.
 */
export interface CheckSubject {
  leadId: string;
  form: LeadFormValues;
}

export interface CheckOutcome {
  /** clear: nothing found; hit: the provider found something the underwriter must read. Both are "finished". */
  verdict: 'clear' | 'hit';
  /** One line for the checks table and the approval page, e.g. "TIN and name match IRS records". */
  summary: string;
  /** Label and value lines for the result PDF. */
  details: [string, string][];
}

/** A provider that could not check (refused input, an error answer): the check is stopped with this message. */
export class CheckFailed extends Error {}

export interface CheckProvider {
  /** Which implementation answered, e.g. "sandbox" or "TINCheck (www.tincheck.com)": kept with the check. */
  readonly name: string;
  readonly sandbox: boolean;
  /** Answers within the time the signal allows; when it aborts, the check is stopped as timed out. */
  run(check: AutomaticCheck, subject: CheckSubject, signal: AbortSignal): Promise<CheckOutcome>;
}

export type CheckProviders = Record<AutomaticCheck, CheckProvider>;
