import {
  GROUP_BANKS,
  type JobState,
  PARTNER_EXPORT_FILE,
  PARTNER_EXPORT_SHEET,
  partnerEndpoints,
  partnerImportColumns,
  type RuntimeStatus,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { keptJson, scopeKey } from '../../platform/answerCache';
import { audit } from '../../platform/audit';
import { SandboxCrm } from '../../platform/crm';
import { AppError, notFound } from '../../platform/errors';
import { type Deps, route } from '../../platform/http';
import { stageImport } from '../../platform/imports';
import { sendWorkbook } from '../../platform/spreadsheets';
import { tableRoutes } from '../../platform/tableRoutes';
import { findRun, unfinishedRun } from '../jobs/queries';
import { addGroup, updateRevShare } from './editing';
import {
  accountGroupRowsJson,
  directoryRowsJson,
  lastGroupIds,
  partnerAccount,
  partnersSource,
  revShareHistory,
} from './queries';
import { applyPartnerImport, exportColumns, holdExportRows } from './xlsx';

const IMPORT_JOB = 'partners.import';

/** The spec's runtime_status of a job state. */
const RUNTIME: Record<JobState, RuntimeStatus> = {
  created: 'started',
  retry: 'started',
  active: 'started',
  completed: 'finished',
  failed: 'stopped',
  cancelled: 'stopped',
};

/**
 * Partners (spec document 2 §2.4, §7). Reading is for everyone signed in, ISO-bound users through their ISO's
 * row-level security (their own account only); editing needs partners_edit and Import XLSX import_reports. The
 * CRM import is everyone's, as the spec shows it: one run at a time, partner staff not shown its directory-wide counts.
 */
export function partnerRoutes(app: FastifyInstance, deps: Deps) {
  const crm = deps.crm ?? new SandboxCrm();

  route(app, deps, {
    endpoint: partnerEndpoints.list,
    access: 'session',
    scope: 'iso',
    handler: ({ db }) => directoryRowsJson(db),
  });

  route(app, deps, {
    endpoint: partnerEndpoints.search,
    access: 'session',
    scope: 'iso',
    handler: ({ db, input }) => directoryRowsJson(db, input.val),
  });

  route(app, deps, {
    endpoint: partnerEndpoints.getPartners,
    access: 'session',
    scope: 'iso',
    // The whole directory (1.6 MB at the large scale): kept, and sent compressed to browsers.
    handler: ({ db, user }) =>
      keptJson(deps.db, db, 'partners', scopeKey(user), () => accountGroupRowsJson(db)),
  });

  route(app, deps, {
    endpoint: partnerEndpoints.account,
    access: 'session',
    scope: 'iso',
    handler: async ({ db, input }) => {
      const account = await partnerAccount(db, input.accountid);
      if (!account) throw notFound('No such partner account');
      return account;
    },
  });

  route(app, deps, {
    endpoint: partnerEndpoints.revShareHistory,
    access: 'session',
    scope: 'iso',
    handler: async ({ db, input }) => {
      const history = await revShareHistory(db, input.group_id);
      if (!history) throw notFound('No such group');
      return history;
    },
  });

  tableRoutes(app, deps, {
    access: 'session',
    scope: 'iso',
    endpoints: partnerEndpoints.table,
    source: () => partnersSource,
    file: () => ({ name: PARTNER_EXPORT_FILE, sheet: PARTNER_EXPORT_SHEET }),
  });

  route(app, deps, {
    endpoint: partnerEndpoints.addGroupId,
    access: 'partners_edit',
    scope: 'staffOnly',
    handler: ({ db, input, user, req }) =>
      addGroup(db, crm, user, { ...input, profile: input.profile ?? null }, req.ip),
  });

  route(app, deps, {
    endpoint: partnerEndpoints.updateRevShare,
    access: 'partners_edit',
    scope: 'staffOnly',
    handler: ({ db, input, user, req }) =>
      updateRevShare(db, crm, user, input.group_id, input.revshare, req.ip),
  });

  route(app, deps, {
    endpoint: partnerEndpoints.lastGroupIds,
    access: 'partners_edit',
    scope: 'staffOnly',
    handler: ({ db }) => lastGroupIds(db, GROUP_BANKS),
  });

  route(app, deps, {
    endpoint: partnerEndpoints.importCrm,
    access: 'session',
    // Shown to everyone (spec §4), partner staff included: the job only brings PayDesk in line with the CRM,
    // it runs as the platform (not in the caller's ISO scope), and one run at a time is enough.
    scope: 'platform',
    handler: async ({ db, user }) => {
      const job = deps.jobs.definition(IMPORT_JOB);
      if (!job) throw new AppError('bad_request', 'The partner import is not available on this server');
      const running = await unfinishedRun(db, IMPORT_JOB);
      if (running) return { uuid: running };
      // Queued in the request's transaction: the answer's uuid names a job that exists.
      return { uuid: await deps.jobs.send(job, {}, { db, startedBy: user.id }) };
    },
  });

  route(app, deps, {
    endpoint: partnerEndpoints.importStatus,
    access: 'session',
    scope: 'platform',
    handler: async ({ db, input, user }) => {
      const run = await findRun(db, input.uuid);
      // Anyone may follow a partner import (the button is everyone's, and a click joins a run under way);
      // partner staff see its state but not its directory-wide counts. Other jobs are not followed here.
      if (!run || run.name !== IMPORT_JOB) throw notFound('No such import');
      const internal = user.isoId === null;
      return [
        {
          uuid: run.id,
          runtime_status: RUNTIME[run.state],
          percent: run.percent,
          message: internal ? run.message : null,
          result: internal ? run.result : null,
          error: run.error ?? (run.state === 'cancelled' ? 'The import was cancelled' : null),
          createdAt: run.createdAt,
          completedAt: run.completedAt,
        },
      ];
    },
  });

  route(app, deps, {
    endpoint: partnerEndpoints.export,
    access: 'session',
    scope: 'iso',
    bulk: true,
    handler: async ({ db, reply, afterCommit }) => {
      const rows = await holdExportRows(db);
      afterCommit(async (connection) => {
        await sendWorkbook(reply, PARTNER_EXPORT_FILE, PARTNER_EXPORT_SHEET, exportColumns, (addRows) =>
          rows.forEachChunk(connection, addRows).then(() => undefined),
        );
      });
      return undefined;
    },
  });

  route(app, deps, {
    endpoint: partnerEndpoints.upload,
    access: 'import_reports',
    scope: 'staffOnly',
    file: true,
    bulk: true,
    handler: async ({ db, input, file, user, req }) => {
      const rows = await stageImport(
        db,
        partnerImportColumns,
        file ? { kind: 'xlsx', file } : { kind: 'rows', rows: input.records },
      );
      const { added, changed } = await applyPartnerImport(db);
      await audit(db, {
        actor: user,
        action: 'partner.upload',
        subject: 'Partners',
        ip: req.ip,
        details: { rows, added, changed },
      });
      return {
        success: true,
        message: `Imported ${rows} partner account${rows === 1 ? '' : 's'}: ${added} added, ${changed} changed`,
        rows,
      };
    },
  });
}
