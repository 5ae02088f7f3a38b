import { bonusRunJob, bonusScheduleJobs } from './areas/bonus/jobs';
import { holdsDemoData, liveDemoJob } from './areas/demo/jobs';
import { cleanupJob } from './areas/jobs/jobs';
import { partnersImportJob } from './areas/partners/importJob';
import { processingReportJob, processingSubscriptionsJob } from './areas/processing/jobs';
import type { Config } from './config';
import type { Db } from './db/connect';
import { type Crm, SandboxCrm } from './platform/crm';
import type { JobDefinition } from './platform/jobs';
import { mailDeliveryJob } from './platform/mailer';

export { holdsDemoData, liveDemoJob };

/**
 * Every background job this server declares; each area adds its own here. The live demo is declared only on
 * a database the demo seed filled (its marker), so it never runs, nor is scheduled, on real data.
 */
export function jobDefinitions(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  options: { liveDemo?: boolean; crm?: Crm } = {},
): JobDefinition[] {
  const delivery = mailDeliveryJob({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
  const report = processingReportJob(delivery);
  return [
    cleanupJob,
    delivery,
    partnersImportJob(options.crm ?? new SandboxCrm()),
    report,
    processingSubscriptionsJob(report),
    bonusRunJob,
    ...bonusScheduleJobs,
    ...(options.liveDemo ? [liveDemoJob] : []),
  ];
}

/** The definitions for this database. */
export async function jobDefinitionsFor(
  db: Db,
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  crm?: Crm,
): Promise<JobDefinition[]> {
  return jobDefinitions(config, { liveDemo: await holdsDemoData(db), ...(crm ? { crm } : {}) });
}
