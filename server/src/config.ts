import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validRoutingNumber } from '@paydesk/domain';
import { z } from 'zod';
import { parseOldPiiKeys, parsePiiKey } from './platform/pii';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = path.resolve(serverRoot, '..');

/** Every environment variable PayDesk reads, parsed and validated here and nowhere else. */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** PostgreSQL server. When unset, the embedded PGlite database in PGLITE_DIR is used. */
  DATABASE_URL: z.string().url().optional(),
  /** Local data folder: the embedded database and the demo credentials. */
  DATA_DIR: z.string().default(path.join(repoRoot, 'data')),
  /** Embedded database folder; defaults to DATA_DIR/pglite. */
  PGLITE_DIR: z.string().optional(),
  /** Where links in e-mails point; defaults to http://localhost:PORT. */
  APP_URL: z.string().url().optional(),
  /** SMTP server for outgoing mail, e.g. smtp://user:pass@mail.example.com:587. Unset: the local outbox. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('PayDesk <no-reply@paydesk.local>'),
  /** Fill an empty database with demo data at start (default on). */
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  /** Demo-data scale. */
  SEED_SCALE: z.enum(['demo', 'large', 'xl']).default('demo'),
  /** Password of the demo users; generated and printed at start when unset. */
  DEMO_PASSWORD: z.string().optional(),
  /** Cookies get Secure when the request came over HTTPS; set true to force it (behind a TLS proxy). */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** Trust X-Forwarded-* from a reverse proxy (client IP for the audit log, HTTPS detection). */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /** The per-address rate limits of platform/rateLimits.ts; off only for test suites that play many users. */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long an uploaded spreadsheet may take to arrive whole (40 MB in 120 s needs about 3 Mbit/s). */
  UPLOAD_BODY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  WEB_DIST: z.string().default(path.join(repoRoot, 'web', 'dist')),
  /** Longest a request's SQL statement may run on PostgreSQL before it is cancelled (PGlite cannot cancel). */
  STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /** Longest a client may take to send a whole request (headers and body). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  /** Key of sensitive fields at rest: base64 of 32 bytes. Unset: a local key kept in DATA_DIR/pii-key.txt. */
  PII_KEY: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return undefined;
      const parsed = parsePiiKey(text);
      if (!('error' in parsed)) return parsed;
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }),
  /** Earlier PII keys, still read after a rotation: comma-separated id:base64 pairs. */
  PII_KEYS_OLD: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const parsed = parseOldPiiKeys(text);
      if (!('error' in parsed)) return parsed;
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }),
  /**
   * The originator of the PCI ACH billing file (docs/pci.md): PayDesk's bank (ODFI) and company as the bank
   * knows them. The defaults are demo values that no bank accepts; production sets its own.
   */
  PCI_ACH_ODFI_ROUTING: z
    .string()
    .default('123456780')
    .refine(
      validRoutingNumber,
      'PCI_ACH_ODFI_ROUTING must be a 9-digit routing number with a valid check digit',
    ),
  PCI_ACH_ODFI_NAME: z.string().min(1).max(23).default('PAYDESK DEMO BANK'),
  PCI_ACH_COMPANY_NAME: z.string().min(1).max(16).default('PAYDESK'),
  PCI_ACH_COMPANY_ID: z
    .string()
    .regex(/^[0-9A-Za-z ]{10}$/, 'PCI_ACH_COMPANY_ID is 10 characters (usually 1 and the 9-digit EIN)')
    .default('1000000001'),
  PCI_ACH_ENTRY_DESCRIPTION: z.string().min(1).max(10).default('PCI FEES'),
  /**
   * The CRM that partners are imported from and new groups are created in. With SALESFORCE_USERNAME and
   * SALESFORCE_PASSWORD set, Salesforce (platform/crm/salesforce.ts); otherwise the sandbox CRM in PayDesk's own
   * database. Never logged.
   */
  SALESFORCE_LOGIN_URL: z.string().url().default('https://login.salesforce.com'),
  SALESFORCE_USERNAME: z.string().optional(),
  SALESFORCE_PASSWORD: z.string().optional(),
  /** Appended to the password, as Salesforce asks of logins from outside the trusted IP ranges. */
  SALESFORCE_SECURITY_TOKEN: z.string().default(''),
  /**
   * Underwriting checks (docs/leads.md): the sandbox provider unless a vendor's account is set. TINCheck answers
   * the TinCheck check when TINCHECK_LOGIN and TINCHECK_PASSWORD are set. Never logged.
   */
  TINCHECK_LOGIN: z.string().optional(),
  TINCHECK_PASSWORD: z.string().optional(),
  /** Giact answers the Giact check when both are set; GIACT_BASE_URL is its sandbox unless set. Never logged. */
  GIACT_USERNAME: z.string().optional(),
  GIACT_PASSWORD: z.string().optional(),
  GIACT_BASE_URL: z.string().url().default('https://sandbox.api.giact.com'),
  /**
   * Mastercard MATCH answers the Match check when the consumer key, the signing key (an unencrypted PKCS#8 PEM
   * file) and the acquirer's Member ICA are all set; MATCH_BASE_URL is Mastercard's sandbox unless set.
   */
  MATCH_CONSUMER_KEY: z.string().optional(),
  MATCH_SIGNING_KEY_PATH: z.string().optional(),
  MATCH_ACQUIRER_ID: z
    .string()
    .regex(/^\d{1,11}$/, 'must be the Member ICA (digits)')
    .optional(),
  MATCH_BASE_URL: z.string().url().default('https://sandbox.api.mastercard.com'),
  /** Longest a check provider may take to answer before the check is stopped as timed out. */
  LEADS_CHECK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
});

export type Config = z.infer<typeof schema> & { appUrl: string; pgliteDir: string };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if ((c.TINCHECK_LOGIN === undefined) !== (c.TINCHECK_PASSWORD === undefined))
    throw new Error('Invalid configuration:\n  Set both TINCHECK_LOGIN and TINCHECK_PASSWORD, or neither');
  const match = [c.MATCH_CONSUMER_KEY, c.MATCH_SIGNING_KEY_PATH, c.MATCH_ACQUIRER_ID].filter(
    (v) => v !== undefined,
  );
  if (match.length !== 0 && match.length !== 3)
    throw new Error(
      'Invalid configuration:\n  Set all of MATCH_CONSUMER_KEY, MATCH_SIGNING_KEY_PATH and MATCH_ACQUIRER_ID, or none',
    );
  if ((c.GIACT_USERNAME === undefined) !== (c.GIACT_PASSWORD === undefined))
    throw new Error('Invalid configuration:\n  Set both GIACT_USERNAME and GIACT_PASSWORD, or neither');
  if ((c.SALESFORCE_USERNAME === undefined) !== (c.SALESFORCE_PASSWORD === undefined))
    throw new Error(
      'Invalid configuration:\n  Set both SALESFORCE_USERNAME and SALESFORCE_PASSWORD, or neither',
    );
  return {
    ...c,
    pgliteDir: c.PGLITE_DIR ?? path.join(c.DATA_DIR, 'pglite'),
    appUrl: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
  };
}
