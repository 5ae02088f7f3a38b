import { hasPermission, jobEndpoints } from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { audit } from '../../platform/audit';
import { AppError, notFound } from '../../platform/errors';
import { type Deps, route } from '../../platform/http';
import { tableRoutes } from '../../platform/tableRoutes';
import { findRun, jobsSource } from './queries';

/** The Jobs screen (admins) and the status of one job (its starter, or an admin). */
export function jobRoutes(app: FastifyInstance, deps: Deps) {
  tableRoutes(app, deps, {
    access: 'manage_jobs',
    scope: 'staffOnly',
    endpoints: jobEndpoints.table,
    source: () => jobsSource(deps.jobs),
    file: () => ({ name: `Jobs-${new Date().toISOString().slice(0, 10)}.xlsx`, sheet: 'Jobs' }),
  });

  route(app, deps, {
    endpoint: jobEndpoints.status,
    access: 'session',
    scope: 'platform',
    handler: async ({ input, db, user }) => {
      const run = await findRun(db, input.id);
      // Someone else's job is answered as no job at all: its existence is not theirs to learn.
      if (!run || (run.startedBy !== user.id && !hasPermission(user, 'manage_jobs')))
        throw notFound('No such job');
      return run;
    },
  });

  route(app, deps, {
    endpoint: jobEndpoints.rerun,
    access: 'manage_jobs',
    scope: 'staffOnly',
    handler: async ({ input, db, user, req }) => {
      const run = await findRun(db, input.id);
      if (!run) throw notFound('No such job');
      if (run.state !== 'failed') throw new AppError('bad_request', 'Only a failed job can be run again');
      const definition = deps.jobs.definition(run.name);
      if (!definition) throw new AppError('bad_request', 'This server no longer runs that kind of job');
      const parsed = definition.payload.safeParse(run.payload);
      if (!parsed.success)
        throw new AppError('bad_request', 'The job’s payload no longer fits; it cannot run again');
      // Queued in this transaction, with its audit entry: both or neither.
      const id = await deps.jobs.send(definition, parsed.data, { db, startedBy: user.id });
      await audit(db, {
        actor: user,
        action: 'job.rerun',
        subject: run.title,
        ip: req.ip,
        details: { title: run.title, failedJob: run.id, newJob: id },
      });
      return { success: true as const, message: `${run.title} queued again`, id };
    },
  });
}
