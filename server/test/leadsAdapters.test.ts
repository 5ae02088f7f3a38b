import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { leadsEndpoints } from '@paydesk/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CheckFailed,
  checkProvidersFromConfig,
  GiactProvider,
  MatchProvider,
  oauthAuthorization,
  SandboxChecks,
  signatureBaseString,
} from '../src/areas/leads/checks';
import { loadConfig } from '../src/config';
import { DDA, leadForm, ROUTING, SSN_DIGITS, TIN_DIGITS } from './fixtures/leadForm';

/**
 * The vendor adapters against a local HTTP server that plays each vendor by its published contract: the request
 * is checked as the vendor would read it (path, credentials, fields) and the documented answers come back
 * (clear, a finding, an error, no answer at all). Nothing here reaches a real vendor.
 */

const form = leadsEndpoints.addLead.input.parse(leadForm('LEADADAPTER1'));
const subject = { leadId: 'LEADADAPTER1', form };
const SECRETS = [SSN_DIGITS, TIN_DIGITS, DDA, ROUTING];

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local vendor: records each request and answers with the next handler (or never, to play a timeout). */
class FakeVendor {
  readonly seen: Seen[] = [];
  answer: (res: ServerResponse, seen: Seen) => void = (res) => res.end();
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      this.seen.push(seen);
      this.answer(res, seen);
    });
  });

  async start() {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    this.server.closeAllConnections();
    this.server.close();
  }
}

const json = (status: number, body: unknown) => (res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('the Giact adapter', () => {
  const vendor = new FakeVendor();
  let giact: GiactProvider;
  beforeAll(async () => {
    const baseUrl = await vendor.start();
    giact = new GiactProvider({ username: 'paydesk-api', password: 's3cret:pw', baseUrl });
  });
  afterAll(() => vendor.stop());
  const run = () => giact.run('Giact', subject, AbortSignal.timeout(2000));

  it('posts a gVerify/gAuthenticate inquiry with Basic credentials, and reads Pass as clear', async () => {
    vendor.answer = json(200, {
      ItemReferenceId: 7001,
      ErrorMessage: null,
      VerificationResponse: 6,
      AccountResponseCode: 12,
      CustomerResponseCode: 18,
    });
    const outcome = await run();
    expect(outcome).toMatchObject({ verdict: 'clear' });
    const seen = vendor.seen.at(-1) as Seen;
    expect(seen.method).toBe('POST');
    expect(seen.path).toBe('/verificationservices/web_api/inquiries_v5_8');
    expect(seen.headers['content-type']).toBe('application/json');
    const [scheme, token] = (seen.headers.authorization ?? '').split(' ');
    expect(scheme).toBe('Basic');
    expect(Buffer.from(token ?? '', 'base64').toString()).toBe('paydesk-api:s3cret:pw');
    const inquiry = JSON.parse(seen.body);
    expect(inquiry).toMatchObject({
      UniqueId: 'LEADADAPTER1',
      GVerifyEnabled: true,
      GAuthenticateEnabled: true,
      Check: { RoutingNumber: '026009593', AccountNumber: '99887766554433' },
      Customer: {
        FirstName: 'Maria',
        LastName: 'Lopez',
        BusinessName: 'Lopez Bakery LLC',
        TaxId: '451234567',
      },
    });
    // What is shown and kept names no full account number or TIN.
    for (const secret of SECRETS) expect(JSON.stringify(outcome)).not.toContain(secret);
    expect(outcome.details).toContainEqual(['Account response code', '12']);
  });

  it('reads the risk answers, by number or by name, as findings', async () => {
    vendor.answer = json(200, { VerificationResponse: 'Declined', AccountResponseCode: 'GN05' });
    expect(await run()).toMatchObject({ verdict: 'hit', summary: 'Giact declines the account' });
    vendor.answer = json(200, { VerificationResponse: 8 });
    expect(await run()).toMatchObject({ verdict: 'hit', summary: 'Giact holds no data on the account' });
    vendor.answer = json(200, { VerificationResponse: 1 });
    expect(await run()).toMatchObject({
      verdict: 'hit',
      summary: 'The account is on the private bad checks list',
    });
  });

  it('stops on an error answer without keeping what Giact said', async () => {
    vendor.answer = json(200, { ErrorMessage: 'Invalid TaxId 451234567', VerificationResponse: 0 });
    const refused = await run().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CheckFailed);
    expect(String((refused as Error).message)).not.toContain('451234567');
    vendor.answer = json(200, { VerificationResponse: 0 });
    await expect(run()).rejects.toThrow(/VerificationResponse 0/);
    vendor.answer = json(401, { Message: 'Authorization has been denied for this request.' });
    await expect(run()).rejects.toThrow('Giact answered HTTP 401');
    vendor.answer = (res) => res.end('<html>maintenance</html>');
    await expect(run()).rejects.toThrow(/other than an inquiry result/);
  });

  it('gives up when Giact does not answer in time', async () => {
    vendor.answer = () => {};
    await expect(giact.run('Giact', subject, AbortSignal.timeout(300))).rejects.toThrow();
  });
});

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

describe('OAuth 1.0a signing for Mastercard', () => {
  it('builds the RFC 5849 base string: host lower-cased, default port dropped, parameters sorted and encoded twice', () => {
    const url = new URL(
      'https://Sandbox.API.mastercard.com:443/fraud/merchant/v3/termination-inquiry?PageOffset=0&PageLength=10',
    );
    // SHA-256 of the empty body, base64: a published constant, not computed here.
    const emptyBodyHash = '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';
    expect(createHash('sha256').update('').digest('base64')).toBe(emptyBodyHash);
    const base = signatureBaseString('post', url, {
      oauth_body_hash: emptyBodyHash,
      oauth_consumer_key: 'ck!abc',
      oauth_nonce: 'n0nce',
      oauth_signature_method: 'RSA-SHA256',
      oauth_timestamp: '1700000000',
      oauth_version: '1.0',
    });
    expect(base).toBe(
      'POST&https%3A%2F%2Fsandbox.api.mastercard.com%2Ffraud%2Fmerchant%2Fv3%2Ftermination-inquiry&' +
        'PageLength%3D10%26PageOffset%3D0%26oauth_body_hash%3D47DEQpj8HBSa%252B%252FTImW%252B5JCeuQeRkm5NMpJWZG3hSuFU%253D' +
        '%26oauth_consumer_key%3Dck%2521abc%26oauth_nonce%3Dn0nce%26oauth_signature_method%3DRSA-SHA256' +
        '%26oauth_timestamp%3D1700000000%26oauth_version%3D1.0',
    );
    const header = oauthAuthorization('POST', url, '', {
      consumerKey: 'ck!abc',
      signingKey: privateKey,
      nonce: 'n0nce',
      timestamp: 1700000000,
    });
    const params = parseOAuthHeader(header);
    expect(params.oauth_body_hash).toBe(emptyBodyHash);
    expect(params.oauth_consumer_key).toBe('ck!abc');
    // The signature verifies with the public key over exactly that base string, and not over another.
    const signature = Buffer.from(params.oauth_signature ?? '', 'base64');
    expect(verify('sha256', Buffer.from(base), publicKey, signature)).toBe(true);
    expect(
      verify('sha256', Buffer.from(base.replace('PageLength%3D10', 'PageLength%3D11')), publicKey, signature),
    ).toBe(false);
  });
});

/** The parameters of an `OAuth k="v",…` header, decoded. */
function parseOAuthHeader(header: string): Record<string, string> {
  expect(header.startsWith('OAuth ')).toBe(true);
  return Object.fromEntries(
    header
      .slice(6)
      .split(',')
      .map((part) => {
        const m = /^([a-z_]+)="([^"]*)"$/.exec(part.trim());
        if (!m) throw new Error(`not an OAuth parameter: ${part}`);
        return [m[1] as string, decodeURIComponent(m[2] as string)];
      }),
  );
}

describe('the Mastercard MATCH adapter', () => {
  const vendor = new FakeVendor();
  let baseUrl: string;
  let match: MatchProvider;
  beforeAll(async () => {
    baseUrl = await vendor.start();
    match = new MatchProvider({
      consumerKey: 'consumer-key!1',
      signingKey: privateKey,
      acquirerId: '1996',
      baseUrl,
    });
  });
  afterAll(() => vendor.stop());
  const run = () => match.run('Match', subject, AbortSignal.timeout(2000));

  /** What Mastercard checks of a request: its body hash and its signature over the request as received. */
  const verifySigned = (seen: Seen) => {
    const params = parseOAuthHeader(seen.headers.authorization ?? '');
    expect(params.oauth_signature_method).toBe('RSA-SHA256');
    expect(params.oauth_consumer_key).toBe('consumer-key!1');
    if (params.oauth_body_hash !== createHash('sha256').update(seen.body).digest('base64')) return false;
    const { oauth_signature: signature, ...signed } = params;
    const base = signatureBaseString(seen.method, new URL(seen.path, baseUrl), signed);
    return verify('sha256', Buffer.from(base), publicKey, Buffer.from(signature ?? '', 'base64'));
  };

  it('sends a signed termination inquiry with the merchant and its principal, and reads no match as clear', async () => {
    vendor.answer = json(200, {
      TerminationInquiry: { PageOffset: 0, TransactionReferenceNumber: 'x', PossibleMerchantMatches: [] },
    });
    const outcome = await run();
    expect(outcome).toMatchObject({ verdict: 'clear', summary: 'No possible MATCH records' });
    const seen = vendor.seen.at(-1) as Seen;
    expect(seen.method).toBe('POST');
    expect(seen.path).toBe('/fraud/merchant/v3/termination-inquiry?PageOffset=0&PageLength=10');
    expect(verifySigned(seen)).toBe(true);
    expect(verifySigned({ ...seen, body: seen.body.replace('Lopez', 'Lopes') })).toBe(false);
    expect(JSON.parse(seen.body)).toMatchObject({
      TerminationInquiryRequest: {
        AcquirerId: '1996',
        Merchant: {
          Name: 'Lopez Bakery LLC',
          DoingBusinessAsName: 'Lopez Bakery',
          NationalTaxId: '451234567',
          Address: { Line1: '400 Main St', City: 'Austin', CountrySubdivision: 'TX', Country: 'USA' },
          Principal: [{ FirstName: 'Maria', LastName: 'Lopez', NationalId: '287654321' }],
        },
      },
    });
    for (const secret of SECRETS) expect(JSON.stringify(outcome)).not.toContain(secret);
  });

  it('reads possible merchant matches as a finding with their count and reason codes', async () => {
    vendor.answer = json(200, {
      TerminationInquiry: {
        PossibleMerchantMatches: [
          {
            TotalLength: 2,
            TerminatedMerchant: [
              {
                Merchant: { Name: 'LOPEZ BAKERY', TerminationReasonCode: '12' },
                MerchantMatch: { Name: 'M01' },
              },
              {
                Merchant: { Name: 'LOPEZ BAKERY LLC', TerminationReasonCode: '08' },
                MerchantMatch: { Name: 'M01' },
              },
            ],
          },
        ],
      },
    });
    expect(await run()).toMatchObject({
      verdict: 'hit',
      summary: '2 possible MATCH records (reason 12, 08)',
    });
  });

  it('stops on an error answer or HTTP error without keeping what Mastercard said', async () => {
    vendor.answer = json(400, {
      Errors: {
        Error: [{ Source: 'NationalId', ReasonCode: 'INVALID', Description: '287654321 is invalid' }],
      },
    });
    const refused = await run().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CheckFailed);
    expect((refused as Error).message).toBe('MATCH answered HTTP 400');
    vendor.answer = json(200, { Errors: { Error: [{ Description: '287654321' }] } });
    await expect(run()).rejects.toThrow(/MATCH refused the inquiry/);
    vendor.answer = () => {};
    await expect(match.run('Match', subject, AbortSignal.timeout(300))).rejects.toThrow();
  });
});

describe('choosing the providers from the configuration', () => {
  it('keeps the sandbox unless a vendor account is set, and Giact on its sandbox URL by default', () => {
    const sandbox = new SandboxChecks();
    const none = checkProvidersFromConfig(loadConfig({}), sandbox);
    expect(Object.values(none).every((p) => p === sandbox)).toBe(true);
    const withGiact = checkProvidersFromConfig(
      loadConfig({ GIACT_USERNAME: 'u', GIACT_PASSWORD: 'p' }),
      sandbox,
    );
    expect(withGiact.Giact).toBeInstanceOf(GiactProvider);
    expect(withGiact.DataX).toBe(sandbox);
    expect(loadConfig({}).GIACT_BASE_URL).toBe('https://sandbox.api.giact.com');
    expect(() => loadConfig({ GIACT_USERNAME: 'u' })).toThrow(/GIACT_USERNAME and GIACT_PASSWORD/);
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'match-key-')), 'key.pem');
    fs.writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const matchEnv = { MATCH_CONSUMER_KEY: 'ck', MATCH_SIGNING_KEY_PATH: keyFile, MATCH_ACQUIRER_ID: '1996' };
    expect(checkProvidersFromConfig(loadConfig(matchEnv), sandbox).Match).toBeInstanceOf(MatchProvider);
    expect(loadConfig({}).MATCH_BASE_URL).toBe('https://sandbox.api.mastercard.com');
    expect(() => loadConfig({ MATCH_CONSUMER_KEY: 'ck' })).toThrow(/MATCH_ACQUIRER_ID, or none/);
    fs.writeFileSync(keyFile, 'not a key');
    expect(() => checkProvidersFromConfig(loadConfig(matchEnv), sandbox)).toThrow(/not a readable/);
  });
});
