import type { Config } from '../../../config';
import { SandboxChecks } from './sandbox';
import { TinCheckProvider } from './tincheck';
import type { CheckProviders } from './types';

export { SANDBOX_TEST_LAST_NAMES, SandboxChecks } from './sandbox';
export { TinCheckProvider } from './tincheck';
export {
  CheckFailed,
  type CheckOutcome,
  type CheckProvider,
  type CheckProviders,
  type CheckSubject,
} from './types';

/**
 * The provider of each automatic check: a vendor's adapter where one exists and its account is configured,
 * the sandbox otherwise. Only TINCheck has an adapter (docs/leads.md says why the others do not).
 */
export function checkProvidersFromConfig(
  config: Pick<Config, 'TINCHECK_LOGIN' | 'TINCHECK_PASSWORD'>,
  sandbox = new SandboxChecks(),
): CheckProviders {
  const tinCheck =
    config.TINCHECK_LOGIN && config.TINCHECK_PASSWORD
      ? new TinCheckProvider({ login: config.TINCHECK_LOGIN, password: config.TINCHECK_PASSWORD })
      : sandbox;
  return { DataX: sandbox, Match: sandbox, TinCheck: tinCheck, Giact: sandbox };
}
