import { cleanupJob } from './areas/jobs/jobs';
import type { Config } from './config';
import type { JobDefinition } from './platform/jobs';
import { mailDeliveryJob } from './platform/mailer';

/** Every background job this server declares; each area adds its own here. */
export function jobDefinitions(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>): JobDefinition[] {
  return [cleanupJob, mailDeliveryJob({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM })];
}
