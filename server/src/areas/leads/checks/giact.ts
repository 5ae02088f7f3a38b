import { type AutomaticCheck, maskLeadField } from '@paydesk/domain';
import { CheckFailed, type CheckOutcome, type CheckProvider, type CheckSubject } from './types';

/**
 * Giact (gVerify and gAuthenticate), whose verification web API is publicly documented at
 * sandbox.api.giact.com/verificationservices/web_api/Help: a POST of a GiactInquiry_5_8 (JSON) to
 * `/verificationservices/web_api/inquiries_v5_8` with HTTP Basic credentials, naming the bank account (Check:
 * RoutingNumber, AccountNumber) and its holder (Customer: the business name and TaxId, the owner's first and last
 * name), with gVerify (the account exists and is open) and gAuthenticate (it belongs to that holder) enabled.
 * The answer's GiactResult_5_8 carries ErrorMessage (validation or permission errors), VerificationResponse
 * (the summary of AccountResponseCode and CustomerResponseCode) and AccountResponseCode:
 * Pass is clear; PrivateBadChecksList, Declined, RejectItem, AcceptWithRisk, RiskAlert, NegativeData and NoData
 * are findings the underwriter reads; Error, an ErrorMessage or any other answer stops the check.
 * Used when GIACT_USERNAME and GIACT_PASSWORD are set (server/src/config.ts); GIACT_BASE_URL defaults to the
 * sandbox. Not tried against Giact itself (no account): tested against a local server playing the contract.
 */
export const GIACT_SANDBOX_URL = 'https://sandbox.api.giact.com';
export const GIACT_INQUIRY_PATH = '/verificationservices/web_api/inquiries_v5_8';

/** VerificationResponse_5_8 in the order of its documented numeric values (the API may answer either). */
export const GIACT_VERIFICATION_RESPONSES = [
  'Error',
  'PrivateBadChecksList',
  'Declined',
  'RejectItem',
  'AcceptWithRisk',
  'RiskAlert',
  'Pass',
  'NegativeData',
  'NoData',
] as const;
type VerificationResponse = (typeof GIACT_VERIFICATION_RESPONSES)[number];

const FINDINGS: Record<Exclude<VerificationResponse, 'Error' | 'Pass'>, string> = {
  PrivateBadChecksList: 'The account is on the private bad checks list',
  Declined: 'Giact declines the account',
  RejectItem: 'Giact rejects the account',
  AcceptWithRisk: 'The account is accepted with risk',
  RiskAlert: 'Giact raises a risk alert on the account',
  NegativeData: 'Giact holds negative data on the account',
  NoData: 'Giact holds no data on the account',
};

function verificationResponse(value: unknown): VerificationResponse | null {
  if (typeof value === 'number') return GIACT_VERIFICATION_RESPONSES[value] ?? null;
  if (typeof value === 'string')
    return GIACT_VERIFICATION_RESPONSES.find((r) => r.toLowerCase() === value.toLowerCase()) ?? null;
  return null;
}

/** An enum the API may answer as a name or a number, shown as given (codes only: no account data). */
const codeText = (value: unknown) =>
  typeof value === 'number' || (typeof value === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(value))
    ? String(value)
    : 'none';

export class GiactProvider implements CheckProvider {
  readonly name = 'Giact gVerify/gAuthenticate (api.giact.com)';
  readonly sandbox = false;

  constructor(
    private readonly account: { username: string; password: string; baseUrl?: string },
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  async run(check: AutomaticCheck, subject: CheckSubject, signal: AbortSignal) {
    if (check !== 'Giact') throw new Error(`Giact answers the Giact check only, not ${check}`);
    const f = subject.form;
    const inquiry = {
      // Giact keeps it with the inquiry: the lead id, so a result can be traced back without personal data.
      UniqueId: subject.leadId,
      GVerifyEnabled: true,
      GAuthenticateEnabled: true,
      FundsConfirmationEnabled: false,
      Check: { RoutingNumber: f.aba_number, AccountNumber: f.dda_number, AccountType: 'Checking' },
      Customer: {
        FirstName: f.first_name,
        LastName: f.last_name,
        BusinessName: f.legal_name,
        TaxId: f.tin ?? f.ssn,
      },
    };
    const base = (this.account.baseUrl ?? GIACT_SANDBOX_URL).replace(/\/+$/, '');
    const basic = Buffer.from(`${this.account.username}:${this.account.password}`).toString('base64');
    const res = await this.fetcher(`${base}${GIACT_INQUIRY_PATH}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(inquiry),
      signal,
    });
    // Giact's ErrorMessage may quote the inquiry: it is never shown or kept, only that there was one.
    if (!res.ok) throw new CheckFailed(`Giact answered HTTP ${res.status}`);
    let result: Record<string, unknown>;
    try {
      const parsed: unknown = await res.json();
      if (typeof parsed !== 'object' || parsed === null) throw new Error();
      result = parsed as Record<string, unknown>;
    } catch {
      throw new CheckFailed('Giact answered something other than an inquiry result');
    }
    if (typeof result.ErrorMessage === 'string' && result.ErrorMessage.trim() !== '')
      throw new CheckFailed(
        'Giact refused the inquiry (its error message is not kept: it may quote the inquiry)',
      );
    const verdict = verificationResponse(result.VerificationResponse);
    if (verdict === null || verdict === 'Error')
      throw new CheckFailed(
        `Giact could not verify the account (VerificationResponse ${codeText(result.VerificationResponse)})`,
      );
    const details: [string, string][] = [
      ['Business', f.legal_name],
      ['Routing number', maskLeadField('aba_number', f.aba_number) ?? ''],
      ['Account number', maskLeadField('dda_number', f.dda_number) ?? ''],
      ['Verification response', verdict],
      ['Account response code', codeText(result.AccountResponseCode)],
      ['Customer response code', codeText(result.CustomerResponseCode)],
      ['Giact reference', codeText(result.ItemReferenceId)],
    ];
    if (verdict === 'Pass')
      return {
        verdict: 'clear',
        summary: 'The account is open and belongs to the applicant',
        details,
      } satisfies CheckOutcome;
    return { verdict: 'hit', summary: FINDINGS[verdict], details } satisfies CheckOutcome;
  }
}
