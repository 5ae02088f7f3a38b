import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { dropStaleResidualBuilds } from './areas/reports/imports';
import { loadConfig } from './config';
import { connect } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { seedAchIfMissing } from './db/seed/ach';
import { seedBonusIfMissing } from './db/seed/bonus';
import { DEMO_USERS, isEmpty, seedDemo } from './db/seed/index';
import { seedLeadsIfMissing } from './db/seed/leads';
import { seedPciIfMissing } from './db/seed/pci';
import { jobDefinitionsFor, liveDemoJob } from './jobs';
import { crmFromConfig } from './platform/crm';
import { randomToken } from './platform/crypto';
import { Jobs } from './platform/jobs';
import { Mailer } from './platform/mailer';
import { configurePiiKeys } from './platform/pii';
import { SpreadsheetThread } from './platform/spreadsheetThreads';
import { putSignInFirst } from './platform/threadPriority';

const config = loadConfig();
const connected = await connect({
  databaseUrl: config.DATABASE_URL,
  pgliteDir: config.pgliteDir,
  // The embedded database's thread stopped by itself: a server with no database only fails requests. It ends, so
  // that whatever runs it starts it again (the data folder holds every committed transaction).
  onEmbeddedFailure: (err) => {
    console.error(`The embedded database stopped (${err.message}); the server ends.`);
    process.exit(1);
  },
});
const { db, kind, close } = connected;
await migrateToLatest(db);
// Residual months that imports were building when a server stopped: nobody sees them (areas/reports/imports.ts).
const staleBuilds = await dropStaleResidualBuilds(db);
if (staleBuilds > 0)
  console.log(`Dropped ${staleBuilds} residual month(s) left half-built by a stopped import.`);
// Without PII_KEY, sensitive fields use a key made once and kept in the local data folder; set before the demo
// seed, which writes bank numbers.
configurePiiKeys(config);

/** The demo password is chosen at the first seed (or taken from DEMO_PASSWORD) and kept in the local data folder. */
const credentialsFile = path.join(config.DATA_DIR, 'demo-credentials.txt');
let demoPassword: string | null = null;
if (config.SEED_DEMO === 'true' && (await isEmpty(db))) {
  demoPassword = config.DEMO_PASSWORD ?? `Pd!${randomToken(9)}7a`;
  console.log(`Filling the empty database with demo data (${config.SEED_SCALE} scale)…`);
  const report = await seedDemo(db, {
    password: demoPassword,
    scale: config.SEED_SCALE,
    log: (l) => console.log(l),
    staged: kind === 'postgres',
  });
  console.log(`Demo data ready in ${report.seconds} s.`);
  fs.mkdirSync(path.dirname(credentialsFile), { recursive: true });
  fs.writeFileSync(credentialsFile, `${demoPassword}\n`, { mode: 0o600 });
} else if (fs.existsSync(credentialsFile)) {
  demoPassword = fs.readFileSync(credentialsFile, 'utf8').trim();
}
// A demo database filled before the ACH tables existed gets its ACH rows once (a database of real data never).
if (config.SEED_DEMO === 'true') {
  const ach = await seedAchIfMissing(db, (l) => console.log(l));
  if (ach) console.log(`Added ${ach.returns} ACH returns to the demo data.`);
  const bonus = await seedBonusIfMissing(db, (l) => console.log(l));
  if (bonus) console.log(`Added ${bonus.runs} bonus runs to the demo data.`);
  const pci = await seedPciIfMissing(db, (l) => console.log(l));
  if (pci) console.log(`Added ${pci.merchants} PCI merchants to the demo data.`);
  const leads = await seedLeadsIfMissing(db, (l) => console.log(l));
  if (leads) console.log(`Added ${leads} CRM leads to the demo data.`);
}

const jobLog = {
  info: (obj: unknown, msg?: string) => app.log.info(obj, msg),
  warn: (obj: unknown, msg?: string) => app.log.warn(obj, msg),
  error: (obj: unknown, msg?: string) => app.log.error(obj, msg),
};
// Started before the app takes requests, which may queue jobs; jobs log through the app's logger.
const crm = crmFromConfig(config);
const definitions = await jobDefinitionsFor(db, config, crm);
const jobs = await Jobs.start({ connected, definitions, log: jobLog });
const mailer = new Mailer(jobs);
// The live demo catches up at once (days the server was off, today so far), then every five minutes.
const liveDemo = definitions.includes(liveDemoJob);
if (liveDemo) await jobs.send(liveDemoJob, {});
const app = await buildApp({ db, config, mailer, jobs, crm }, { logger: { level: config.LOG_LEVEL } });
await SpreadsheetThread.warm();
await putSignInFirst();
await app.listen({ port: config.PORT, host: config.HOST });

const database = kind === 'pglite' ? `embedded PGlite (${config.pgliteDir})` : 'PostgreSQL (DATABASE_URL)';
const lines = [
  '',
  `PayDesk is running at ${config.appUrl}`,
  `  database: ${database}`,
  `  e-mail:   ${config.SMTP_URL ? 'SMTP (SMTP_URL)' : 'local outbox (sign in as admin, open Outbox)'}`,
  `  CRM:      ${crm.description}`,
  `  jobs:     background jobs in the database (admin: Jobs)${liveDemo ? '; the live demo adds today’s data every 5 minutes' : ''}`,
];
if (demoPassword) {
  lines.push('', `Demo sign-ins (password for all: ${demoPassword}):`);
  for (const u of DEMO_USERS) lines.push(`  ${u.email.padEnd(32)} ${u.department.padEnd(14)} ${u.note}`);
}
console.log(`${lines.join('\n')}\n`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info(`${signal} received, shutting down`);
  try {
    await app.close();
    await jobs.stop();
    await close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
