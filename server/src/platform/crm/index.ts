import type { Config } from '../../config';
import { SalesforceCrm } from './salesforce';
import { SandboxCrm } from './sandbox';
import type { Crm } from './types';

export type { Crm, CrmAccount, CrmGroup, CrmLead, CrmLeadRecord, NewCrmGroup } from './types';
export { SalesforceCrm, SandboxCrm };

/** Salesforce when its credentials are set (config.ts checks they come together), else the sandbox. */
export function crmFromConfig(config: Config): Crm {
  if (config.SALESFORCE_USERNAME && config.SALESFORCE_PASSWORD)
    return new SalesforceCrm({
      loginUrl: config.SALESFORCE_LOGIN_URL,
      username: config.SALESFORCE_USERNAME,
      password: config.SALESFORCE_PASSWORD,
      securityToken: config.SALESFORCE_SECURITY_TOKEN,
    });
  return new SandboxCrm();
}
