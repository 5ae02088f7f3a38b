/**
 * The underwriting checks of a lead (spec document 3 §2.4, §3 "Check", §4, §8, §9) and their state machine.
 * Four run automatically as background jobs (DataX, Match, TinCheck, Giact); LexisNexis is a report the RM
 * uploads by hand as a PDF. Everything here is pure: the server and the web decide from the same rules, and the
 * current time is always passed in.
 */

export const AUTOMATIC_CHECKS = ['DataX', 'Match', 'TinCheck', 'Giact'] as const;
export type AutomaticCheck = (typeof AUTOMATIC_CHECKS)[number];
export const MANUAL_CHECKS = ['LexisNexis'] as const;
export const CHECK_TYPES = [...AUTOMATIC_CHECKS, ...MANUAL_CHECKS] as const;
export type CheckType = (typeof CHECK_TYPES)[number];
export const isAutomaticCheck = (name: string): name is AutomaticCheck =>
  (AUTOMATIC_CHECKS as readonly string[]).includes(name);

/** What each check asks, for the screen and the docs. */
export const CHECK_DESCRIPTIONS: Record<CheckType, string> = {
  DataX: 'Credit and identity history of the applicant (SSN, name, DOB, address)',
  Match: 'Mastercard MATCH: merchants terminated by another acquirer (business and principal)',
  TinCheck: 'The TIN and legal name against the IRS records',
  Giact: 'The routing and DDA numbers: the account exists, is open and belongs to the applicant',
  LexisNexis: 'Background report, run by hand and uploaded as a PDF',
};

/**
 * initiated: queued, not yet picked up; started: the provider is working; finished: an answer came back (a hit
 * is still "finished", its result says what was found); stopped: it failed, timed out, or hung.
 * A LexisNexis check is "uploaded" once its report is in, "stopped" if the upload was refused, and has no
 * status before.
 */
export const CHECK_STATUSES = ['initiated', 'started', 'finished', 'stopped', 'uploaded'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** Spec §9: a check started this long ago without finishing is treated as stopped. */
export const CHECK_STALE_AFTER_MS = 15 * 60 * 1000;
/** Spec §9: the client polls this often while a check runs. */
export const CHECK_POLL_INTERVAL_MS = 2000;
/** Spec §8: what a stopped check shows when it has no message of its own. */
export const CHECK_UNKNOWN_ERROR = 'Unknown error';
export const STALE_CHECK_MESSAGE = 'The check did not finish within 15 minutes';

export interface CheckState {
  runtime_status: CheckStatus | null;
  /** When the provider started working on it (the "started" transition). */
  started_at: string | Date | null;
}

const time = (v: string | Date) => (v instanceof Date ? v.getTime() : Date.parse(v));

/** The status to show and act on at `now`: a check started more than 15 minutes ago counts as stopped. */
export function effectiveCheckStatus(check: CheckState, now: Date): CheckStatus | null {
  if (check.runtime_status !== 'started') return check.runtime_status;
  if (check.started_at === null) return 'started';
  return now.getTime() - time(check.started_at) > CHECK_STALE_AFTER_MS ? 'stopped' : 'started';
}

/** What happens to a check: queued (Run/Re-run), picked up, answered, failed (or timed out). */
export type CheckEvent = 'queue' | 'start' | 'finish' | 'fail';

/**
 * The transitions, for automatic checks: initiated → started → finished | stopped, and Re-run queues again from
 * initiated, finished or stopped (spec §4), never while it is started. A check may also fail before it starts
 * (its job could not run). Returns the new status, or null when the event is not allowed from there.
 * `from` is the effective status (effectiveCheckStatus), so a hung check can be re-run after 15 minutes.
 */
export function nextCheckStatus(from: CheckStatus | null, event: CheckEvent): CheckStatus | null {
  switch (event) {
    case 'queue':
      return from === null || canRerun(from) ? 'initiated' : null;
    case 'start':
      return from === 'initiated' ? 'started' : null;
    case 'finish':
      return from === 'started' ? 'finished' : null;
    case 'fail':
      return from === 'initiated' || from === 'started' ? 'stopped' : null;
  }
}

/** Spec §4: Re-run is offered on initiated, finished and stopped checks. */
export function canRerun(status: CheckStatus | null): boolean {
  return status === 'initiated' || status === 'finished' || status === 'stopped';
}

/**
 * Spec §4: the client polls while a check runs; any combination of finished, stopped and initiated ends it.
 * So polling goes on exactly while some check is (effectively) started.
 */
export function shouldPollChecks(checks: readonly CheckState[], now: Date): boolean {
  return checks.some((c) => effectiveCheckStatus(c, now) === 'started');
}

/** Spec §4: step 1 (Run Validations) is complete when all four automatic checks have finished. */
export function allAutomaticChecksFinished(
  checks: readonly (CheckState & { check_type: string })[],
  now: Date,
): boolean {
  return AUTOMATIC_CHECKS.every((type) =>
    checks.some((c) => c.check_type === type && effectiveCheckStatus(c, now) === 'finished'),
  );
}

/** The error message a stopped check shows (spec §8). */
export function checkErrorText(check: CheckState & { error_msg: string | null }, now: Date): string | null {
  const status = effectiveCheckStatus(check, now);
  if (status !== 'stopped') return check.error_msg;
  if (check.runtime_status === 'started') return STALE_CHECK_MESSAGE;
  return check.error_msg ?? CHECK_UNKNOWN_ERROR;
}

/** Spec §3: a check's documents are kept as one text, names separated by a pipe. */
export const splitDocumentNames = (value: string | null): string[] =>
  value ? value.split('|').filter((name) => name !== '') : [];
export const joinDocumentNames = (names: readonly string[]): string | null =>
  names.length === 0 ? null : names.join('|');
