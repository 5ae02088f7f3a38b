import { type AutomaticCheck, maskLeadField } from '@paydesk/domain';
import { CheckFailed, type CheckOutcome, type CheckProvider, type CheckSubject } from './types';

/**
 * TINCheck (Sovos), whose web service is publicly documented (www.tincheck.com/pages/developer and
 * docs.sovos.com, "TINCheck SOAP API"): a SOAP 1.1 call of ValidateTinName at
 * https://www.tincheck.com/pvsws/pvsservice.asmx with the TIN (9 digits, no formatting), the name, and the
 * account's login and password. The answer's TINNAME_CODE says whether the IRS holds that TIN under that name;
 * the documented match codes (1 and 6–8: a match as an SSN, an EIN or both) are clear, 0 (no match) and 2 (a
 * TIN not issued) are findings, anything else is a failure of the inquiry. Used when TINCHECK_LOGIN and
 * TINCHECK_PASSWORD are set (server/src/config.ts).
 */
export const TINCHECK_URL = 'https://www.tincheck.com/pvsws/pvsservice.asmx';
const NS = 'http://www.TinCheck.com/WebServices/PVSService/';
const MATCH_CODES = new Set(['1', '6', '7', '8']);
const FINDING_CODES = new Set(['0', '2']);

const xml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const element = (body: string, name: string) => {
  const m = new RegExp(`<(?:\\w+:)?${name}>([^<]*)</(?:\\w+:)?${name}>`).exec(body);
  return m?.[1]?.trim() ?? null;
};

export class TinCheckProvider implements CheckProvider {
  readonly name = 'TINCheck (www.tincheck.com)';
  readonly sandbox = false;

  constructor(
    private readonly account: { login: string; password: string; url?: string },
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  async run(check: AutomaticCheck, subject: CheckSubject, signal: AbortSignal) {
    if (check !== 'TinCheck') throw new Error(`TINCheck answers the TinCheck check only, not ${check}`);
    const f = subject.form;
    // A business is checked by its EIN and legal name; a sole proprietor without one by SSN and name.
    const byEin = f.tin !== null;
    const tin = (byEin ? f.tin : f.ssn) ?? '';
    const name = byEin ? f.legal_name : `${f.first_name} ${f.last_name}`;
    const envelope = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:pvs="${NS}">
<soap:Body><pvs:ValidateTinName>
<pvs:TinName><pvs:TIN>${xml(tin)}</pvs:TIN><pvs:LName>${xml(name)}</pvs:LName></pvs:TinName>
<pvs:CurUser><pvs:UserID></pvs:UserID><pvs:UserLogin>${xml(this.account.login)}</pvs:UserLogin><pvs:UserPassword>${xml(this.account.password)}</pvs:UserPassword><pvs:UserEncryption></pvs:UserEncryption></pvs:CurUser>
</pvs:ValidateTinName></soap:Body></soap:Envelope>`;
    const res = await this.fetcher(this.account.url ?? TINCHECK_URL, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}ValidateTinName"` },
      body: envelope,
      signal,
    });
    const body = await res.text();
    // The answer may quote the request: only the status code and TINCheck's own result fields are used.
    if (!res.ok) throw new CheckFailed(`TINCheck answered HTTP ${res.status}`);
    const code = element(body, 'TINNAME_CODE');
    const details = element(body, 'TINNAME_DETAILS') ?? '';
    const shown: [string, string][] = [
      ['Name', name],
      ['TIN', maskLeadField(byEin ? 'tin' : 'ssn', tin) ?? ''],
      ['TINCheck code', code ?? 'none'],
      ['TINCheck result', details],
    ];
    if (code !== null && MATCH_CODES.has(code))
      return {
        verdict: 'clear',
        summary: details || 'TIN and name match IRS records',
        details: shown,
      } satisfies CheckOutcome;
    if (code !== null && FINDING_CODES.has(code))
      return {
        verdict: 'hit',
        summary: details || 'TIN and name do not match IRS records',
        details: shown,
      } satisfies CheckOutcome;
    const status = element(body, 'Status');
    throw new CheckFailed(
      `TINCheck could not check the TIN (code ${code ?? 'none'}${status ? `, status ${status}` : ''})`,
    );
  }
}
