import { createHash } from 'node:crypto';
import { type AutomaticCheck, maskAccountNumber, maskLeadField } from '@paydesk/domain';
import { CheckFailed, type CheckOutcome, type CheckProvider, type CheckSubject } from './types';

/**
 * The default check provider: no vendor is called, and the answer follows from the applicant's data alone, so
 * the same lead always gets the same results. Test values (docs/leads.md) steer every automatic check:
 * - last name "Hit": each check finishes with a finding (a MATCH record, a TIN mismatch, a closed account…);
 * - last name "Fail": each check is stopped with the provider's error;
 * - last name "Timeout": the provider never answers, so each check is stopped when its time runs out.
 * Any other applicant is clear. An answer takes 0.3–1.2 s (from the data), like a quick vendor.
 */
export const SANDBOX_TEST_LAST_NAMES = { hit: 'Hit', fail: 'Fail', timeout: 'Timeout' } as const;

const digest = (text: string) => createHash('sha256').update(text).digest();

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class SandboxChecks implements CheckProvider {
  readonly name = 'sandbox';
  readonly sandbox = true;

  constructor(private readonly latency: { minMs: number; maxMs: number } = { minMs: 300, maxMs: 1200 }) {}

  async run(check: AutomaticCheck, subject: CheckSubject, signal: AbortSignal): Promise<CheckOutcome> {
    const f = subject.form;
    const lastName = f.last_name.trim().toLowerCase();
    if (lastName === SANDBOX_TEST_LAST_NAMES.timeout.toLowerCase()) {
      // Never answers: only the caller's time limit ends it.
      await wait(2_147_483_647, signal);
    }
    const h = digest(`${check}|${subject.leadId}|${f.ssn}|${f.legal_name}`);
    const span = Math.max(0, this.latency.maxMs - this.latency.minMs);
    await wait(this.latency.minMs + (h.readUInt16BE(0) % (span + 1)), signal);
    if (lastName === SANDBOX_TEST_LAST_NAMES.fail.toLowerCase())
      throw new CheckFailed(`${check} sandbox: the provider refused the inquiry (test value "Fail")`);
    const hit = lastName === SANDBOX_TEST_LAST_NAMES.hit.toLowerCase();
    const who = `${f.first_name} ${f.last_name}`;
    switch (check) {
      case 'DataX': {
        const score = hit ? 480 + ((h[2] ?? 0) % 60) : 640 + ((h[2] ?? 0) % 160);
        return {
          verdict: hit ? 'hit' : 'clear',
          summary: hit
            ? `Score ${score}: 2 charged-off accounts on file`
            : `Score ${score}: no derogatory records`,
          details: [
            ['Applicant', who],
            ['SSN', maskLeadField('ssn', f.ssn) ?? ''],
            ['Score', String(score)],
            ['Derogatory records', hit ? '2 charged-off accounts' : 'None'],
          ],
        };
      }
      case 'Match':
        return {
          verdict: hit ? 'hit' : 'clear',
          summary: hit ? '1 MATCH record: reason 12 (merchant collusion), 2023' : 'No MATCH records found',
          details: [
            ['DBA', f.dba ?? ''],
            ['Principal', who],
            ['Records', hit ? '1 (reason code 12, added 2023)' : 'None'],
          ],
        };
      case 'TinCheck': {
        const tin = f.tin ?? f.ssn;
        return {
          verdict: hit ? 'hit' : 'clear',
          summary: hit ? 'TIN and name do not match IRS records' : 'TIN and name match IRS records',
          details: [
            ['Name', f.tin ? f.legal_name : who],
            ['TIN', maskLeadField(f.tin ? 'tin' : 'ssn', tin) ?? ''],
            ['IRS result', hit ? 'No match (code 0)' : 'Match (code 1)'],
          ],
        };
      }
      case 'Giact':
        return {
          verdict: hit ? 'hit' : 'clear',
          summary: hit ? 'The bank account is closed' : 'Open valid checking account; owner matches',
          details: [
            ['Routing', maskLeadField('aba_number', f.aba_number) ?? ''],
            ['Account', maskAccountNumber(f.dda_number)],
            ['Account status', hit ? 'Closed' : 'Open, valid'],
            ['Owner match', hit ? 'Not checked' : 'Yes'],
          ],
        };
    }
  }
}
