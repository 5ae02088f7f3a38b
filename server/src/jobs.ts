import { isoInfoJob } from './areas/bi/jobs';
import { activationDayJob, bonusRunJob, bonusScheduleJobs } from './areas/bonus/jobs';
import { holdsDemoData, liveDemoJob } from './areas/demo/jobs';
import { midPartsJob } from './areas/financial/jobs';
import { cleanupJob } from './areas/jobs/jobs';
import { type CheckProvidersConfig, checkProvidersFromConfig } from './areas/leads/checks';
import type { CheckProviders } from './areas/leads/checks/types';
import { checkJobs } from './areas/leads/jobs';
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
export type JobsConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM'> &
  CheckProvidersConfig &
  Partial<Pick<Config, 'LEADS_CHECK_TIMEOUT_SECONDS'>>;

export function jobDefinitions(
  config: JobsConfig,
  options: { liveDemo?: boolean; crm?: Crm; checks?: CheckProviders } = {},
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
    activationDayJob,
    isoInfoJob,
    midPartsJob,
    ...Object.values(
      checkJobs(options.checks ?? checkProvidersFromConfig(config), config.LEADS_CHECK_TIMEOUT_SECONDS ?? 60),
    ),
    ...(options.liveDemo ? [liveDemoJob] : []),
  ];
}

/** The definitions for this database. */
export async function jobDefinitionsFor(db: Db, config: JobsConfig, crm?: Crm): Promise<JobDefinition[]> {
  return jobDefinitions(config, { liveDemo: await holdsDemoData(db), ...(crm ? { crm } : {}) });
}
