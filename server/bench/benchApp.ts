import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import type { Config } from '../src/config';
import type { Connected } from '../src/db/connect';
import { jobDefinitions } from '../src/jobs';
import { Jobs } from '../src/platform/jobs';
import { Mailer } from '../src/platform/mailer';

/**
 * The application as the benchmark measures it: every route, with jobs declared (routes may queue them) but not
 * worked, so the figures are the requests' alone.
 */
export async function benchApp(
  connected: Connected,
  config: Config,
): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const jobs = await Jobs.start({
    connected,
    definitions: jobDefinitions(config),
    work: false,
    schedule: false,
    log: { info: () => {}, warn: console.warn, error: console.error },
  });
  const app = await buildApp({ db: connected.db, config, mailer: new Mailer(jobs), jobs }, { logger: false });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await jobs.stop();
    },
  };
}
