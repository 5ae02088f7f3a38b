import { createPrivateKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import { type AutomaticCheck, maskLeadField } from '@paydesk/domain';
import { oauthAuthorization } from './oauth1';
import { CheckFailed, type CheckOutcome, type CheckProvider, type CheckSubject } from './types';

/**
 * Mastercard MATCH (the MATCH API at developer.mastercard.com/match): a termination inquiry, POST
 * `/fraud/merchant/v3/termination-inquiry?PageOffset=0&PageLength=10` with a `TerminationInquiryRequest` naming
 * the acquirer (AcquirerId: the Member ICA) and the merchant (legal and DBA name, address, phone, NationalTaxId)
 * with its principal (name, NationalId, home address). Every call is signed with OAuth 1.0a RSA-SHA256 and
 * `oauth_body_hash` (oauth1.ts) with the consumer key and signing key Mastercard issues. The answer's
 * `TerminationInquiry.PossibleMerchantMatches` lists terminated merchants that may be this one: none is clear,
 * any is a finding with their count and termination reason codes; an `Errors` answer or an HTTP error stops the
 * check with the status only (Mastercard's error text may quote the inquiry). Used when MATCH_CONSUMER_KEY,
 * MATCH_SIGNING_KEY_PATH and MATCH_ACQUIRER_ID are set; MATCH_BASE_URL defaults to the sandbox. Not tried
 * against Mastercard itself (no key): tested against a local server that checks the signature.
 */
export const MATCH_SANDBOX_URL = 'https://sandbox.api.mastercard.com';
export const MATCH_INQUIRY_PATH = '/fraud/merchant/v3/termination-inquiry';

/** The signing key: an unencrypted PKCS#8 PEM (`openssl pkcs12 -in key.p12 -nocerts -nodes` gives one from a .p12). */
export function readMatchSigningKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: fs.readFileSync(file, 'utf8'), format: 'pem' });
  } catch {
    throw new Error(`MATCH_SIGNING_KEY_PATH: ${file} is not a readable unencrypted PEM private key`);
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`MATCH_SIGNING_KEY_PATH: ${file} is not an RSA key`);
  return key;
}

interface MatchRecord {
  Merchant?: { TerminationReasonCode?: unknown };
}

const reasonCode = (value: unknown) =>
  typeof value === 'string' && /^[A-Za-z0-9]{1,4}$/.test(value) ? value : null;

export class MatchProvider implements CheckProvider {
  readonly name = 'Mastercard MATCH (api.mastercard.com)';
  readonly sandbox = false;

  constructor(
    private readonly account: {
      consumerKey: string;
      signingKey: KeyObject;
      acquirerId: string;
      baseUrl?: string;
    },
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  async run(check: AutomaticCheck, subject: CheckSubject, signal: AbortSignal) {
    if (check !== 'Match') throw new Error(`MATCH answers the Match check only, not ${check}`);
    const f = subject.form;
    const body = JSON.stringify({
      TerminationInquiryRequest: {
        AcquirerId: this.account.acquirerId,
        TransactionReferenceNumber: subject.leadId,
        Merchant: {
          Name: f.legal_name,
          DoingBusinessAsName: f.dba,
          PhoneNumber: f.business_phone?.replace(/\D/g, '') || undefined,
          NationalTaxId: f.tin ?? undefined,
          Address: {
            Line1: f.business_address_1,
            City: f.business_city,
            CountrySubdivision: f.business_state,
            PostalCode: f.business_zip,
            Country: 'USA',
          },
          Principal: [
            {
              FirstName: f.first_name,
              LastName: f.last_name,
              NationalId: f.ssn,
              Address: {
                Line1: f.home_address,
                City: f.home_city,
                CountrySubdivision: f.home_state,
                PostalCode: f.home_zip,
                Country: 'USA',
              },
            },
          ],
        },
      },
    });
    const url = new URL(
      `${(this.account.baseUrl ?? MATCH_SANDBOX_URL).replace(/\/+$/, '')}${MATCH_INQUIRY_PATH}`,
    );
    url.search = 'PageOffset=0&PageLength=10';
    const res = await this.fetcher(url, {
      method: 'POST',
      headers: {
        authorization: oauthAuthorization('POST', url, body, {
          consumerKey: this.account.consumerKey,
          signingKey: this.account.signingKey,
        }),
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body,
      signal,
    });
    if (!res.ok) throw new CheckFailed(`MATCH answered HTTP ${res.status}`);
    let answer: { TerminationInquiry?: { PossibleMerchantMatches?: unknown }; Errors?: unknown };
    try {
      answer = (await res.json()) as typeof answer;
      if (typeof answer !== 'object' || answer === null) throw new Error();
    } catch {
      throw new CheckFailed('MATCH answered something other than a termination inquiry');
    }
    if (answer.Errors !== undefined || answer.TerminationInquiry === undefined)
      throw new CheckFailed(
        'MATCH refused the inquiry (its error text is not kept: it may quote the inquiry)',
      );
    const groups = answer.TerminationInquiry.PossibleMerchantMatches;
    const records: MatchRecord[] = Array.isArray(groups)
      ? groups.flatMap((g: { TerminatedMerchant?: unknown }) =>
          Array.isArray(g?.TerminatedMerchant) ? (g.TerminatedMerchant as MatchRecord[]) : [],
        )
      : [];
    const reasons = [
      ...new Set(records.map((r) => reasonCode(r.Merchant?.TerminationReasonCode)).filter((r) => r !== null)),
    ];
    const details: [string, string][] = [
      ['Merchant', f.legal_name],
      ['Principal', `${f.first_name} ${f.last_name}`],
      ['Principal SSN', maskLeadField('ssn', f.ssn) ?? ''],
      ['Acquirer (ICA)', this.account.acquirerId],
      ['Possible matches', String(records.length)],
      ['Termination reason codes', reasons.join(', ') || 'none'],
    ];
    if (records.length === 0)
      return { verdict: 'clear', summary: 'No possible MATCH records', details } satisfies CheckOutcome;
    return {
      verdict: 'hit',
      summary: `${records.length} possible MATCH record${records.length === 1 ? '' : 's'}${reasons.length ? ` (reason ${reasons.join(', ')})` : ''}`,
      details,
    } satisfies CheckOutcome;
  }
}
