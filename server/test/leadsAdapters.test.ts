import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { leadsEndpoints } from '@paydesk/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CheckFailed,
  checkProvidersFromConfig,
  GiactProvider,
  SandboxChecks,
} from '../src/areas/leads/checks';
import { loadConfig } from '../src/config';

/**
 * The vendor adapters against a local HTTP server that plays each vendor by its published contract: the request
 * is checked as the vendor would read it (path, credentials, fields) and the documented answers come back
 * (clear, a finding, an error, no answer at all). Nothing here reaches a real vendor.
 */

const form = leadsEndpoints.addLead.input.parse({
  lead_id: 'LEADADAPTER1',
  first_name: 'Maria',
  last_name: 'Lopez',
  ssn: '287-65-4321',
  dob: '1975-03-14',
  home_address: '12 Elm St',
  home_city: 'Austin',
  home_state: 'TX',
  home_zip: '78701',
  dba: 'Lopez Bakery',
  legal_name: 'Lopez Bakery LLC',
  tin: '45-1234567',
  business_address_1: '400 Main St',
  business_city: 'Austin',
  business_state: 'TX',
  business_zip: '78701',
  aba_number: '026009593',
  dda_number: '99887766554433',
});
const subject = { leadId: 'LEADADAPTER1', form };
const SECRETS = ['287654321', '451234567', '99887766554433', '026009593'];

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
  });
});
