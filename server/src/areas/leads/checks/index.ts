import type { Config } from '../../../config';
import { GiactProvider } from './giact';
import { MatchProvider, readMatchSigningKey } from './match';
import { SandboxChecks } from './sandbox';
import { TinCheckProvider } from './tincheck';
import type { CheckProviders } from './types';

export { GIACT_INQUIRY_PATH, GiactProvider } from './giact';
export { MATCH_INQUIRY_PATH, MatchProvider, readMatchSigningKey } from './match';
export { oauthAuthorization, signatureBaseString } from './oauth1';
export { SANDBOX_TEST_LAST_NAMES, SandboxChecks } from './sandbox';
export { TinCheckProvider } from './tincheck';
export {
  CheckFailed,
  type CheckOutcome,
  type CheckProvider,
  type CheckProviders,
  type CheckSubject,
} from './types';

/** The settings that choose the checks' providers (the vendors' accounts). */
export type CheckProvidersConfig = Partial<
  Pick<
    Config,
    | 'TINCHECK_LOGIN'
    | 'TINCHECK_PASSWORD'
    | 'GIACT_USERNAME'
    | 'GIACT_PASSWORD'
    | 'GIACT_BASE_URL'
    | 'MATCH_CONSUMER_KEY'
    | 'MATCH_SIGNING_KEY_PATH'
    | 'MATCH_ACQUIRER_ID'
    | 'MATCH_BASE_URL'
  >
>;

/**
 * The provider of each automatic check: a vendor's adapter where one exists and its account is configured,
 * the sandbox otherwise. TINCheck, Giact and MATCH have adapters (docs/leads.md says why the others do not).
 */
export function checkProvidersFromConfig(
  config: CheckProvidersConfig,
  sandbox = new SandboxChecks(),
): CheckProviders {
  const tinCheck =
    config.TINCHECK_LOGIN && config.TINCHECK_PASSWORD
      ? new TinCheckProvider({ login: config.TINCHECK_LOGIN, password: config.TINCHECK_PASSWORD })
      : sandbox;
  const giact =
    config.GIACT_USERNAME && config.GIACT_PASSWORD
      ? new GiactProvider({
          username: config.GIACT_USERNAME,
          password: config.GIACT_PASSWORD,
          baseUrl: config.GIACT_BASE_URL,
        })
      : sandbox;
  const match =
    config.MATCH_CONSUMER_KEY && config.MATCH_SIGNING_KEY_PATH && config.MATCH_ACQUIRER_ID
      ? new MatchProvider({
          consumerKey: config.MATCH_CONSUMER_KEY,
          signingKey: readMatchSigningKey(config.MATCH_SIGNING_KEY_PATH),
          acquirerId: config.MATCH_ACQUIRER_ID,
          baseUrl: config.MATCH_BASE_URL,
        })
      : sandbox;
  return { DataX: sandbox, Match: match, TinCheck: tinCheck, Giact: giact };
}
