import {
  AUTOMATIC_CHECKS,
  type AutomaticCheck,
  allAutomaticChecksFinished,
  type JobKind,
  joinDocumentNames,
  stepAfterChecksFinished,
} from '@paydesk/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/connect';
import { audit } from '../../platform/audit';
import { storeDocument } from '../../platform/documents';
import { defineJob, type JobDefinition } from '../../platform/jobs';
import { CheckFailed, type CheckOutcome, type CheckProviders } from './checks';
import { checkResultPdf } from './checks/pdf';
import { checkStates, currentStep, savedForm, setStep } from './store';

/**
 * Each automatic check is a background job of its own kind, so the four of a lead run side by side (each kind
 * has its own worker) and a slow vendor holds up only its own check. A run: mark the check started (its own
 * short transaction, so the screen sees it), ask the provider with a time limit and no transaction open, then
 * record the result (and its PDF) or the failure. A job carries the check's run number: once the check is
 * re-run, a job of the earlier run changes nothing. Jobs are not retried: a stopped check shows why, and the
 * RM re-runs it.
 */

export const CHECK_JOB_NAMES: Record<AutomaticCheck, JobKind> = {
  DataX: 'leads.check.datax',
  Match: 'leads.check.match',
  TinCheck: 'leads.check.tincheck',
  Giact: 'leads.check.giact',
};

const payload = z.strictObject({
  leadId: z.string().min(1).max(40),
  run: z.number().int().positive(),
});

export type CheckJobs = Record<AutomaticCheck, JobDefinition<typeof payload>>;

export function checkJobs(providers: CheckProviders, timeoutSeconds: number): CheckJobs {
  const make = (check: AutomaticCheck) => {
    const job = defineJob({
      name: CHECK_JOB_NAMES[check],
      payload,
      describe: (p) => `${check} check of lead ${p.leadId} (run ${p.run})`,
      retryLimit: 0,
      retryDelaySeconds: 0,
      retryBackoff: false,
      timeoutSeconds: timeoutSeconds + 60,
      transaction: 'none',
      async run(ctx, payload) {
        try {
          return await runCheck(ctx.db, payload);
        } catch (err) {
          // Whatever went wrong, the check must not stay initiated or started: it is stopped, and the job fails
          // with the error for the Jobs screen.
          await stop(ctx.db, payload.leadId, check, payload.run, `${check} could not be run`);
          throw err;
        }
      },
    });
    return job;

    async function runCheck(db: Db, { leadId, run }: z.output<typeof payload>): Promise<string> {
      const provider = providers[check];
      const started = await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('lead_checks')
          .set({ runtime_status: 'started', started_at: new Date(), provider: provider.name })
          .where('lead_id', '=', leadId)
          .where('check_type', '=', check)
          .where('run', '=', run)
          .where('runtime_status', '=', 'initiated')
          .returning('queued_by')
          .executeTakeFirst();
        if (!moved) return null;
        const form = await savedForm(trx, leadId);
        return { form, queuedBy: moved.queued_by };
      });
      if (!started) return 'Superseded by a later run';
      if (!started.form) return stop(db, leadId, check, run, 'The lead form is not saved');
      if (started.queuedBy === null) return stop(db, leadId, check, run, 'Nobody ran this check');
      const queuedBy = started.queuedBy;

      let outcome: CheckOutcome;
      try {
        outcome = await provider.run(
          check,
          { leadId, form: started.form },
          AbortSignal.timeout(timeoutSeconds * 1000),
        );
      } catch (err) {
        const message =
          err instanceof CheckFailed
            ? err.message
            : (err as Error)?.name === 'TimeoutError'
              ? `${check} did not answer within ${timeoutSeconds} seconds`
              : `${check} could not be reached`;
        return stop(db, leadId, check, run, message);
      }

      const finishedAt = new Date();
      const pdf = await checkResultPdf({
        check,
        leadId,
        legalName: started.form.legal_name,
        provider: provider.name,
        sandbox: provider.sandbox,
        outcome,
        finishedAt,
      });
      return db.transaction().execute(async (trx) => {
        const doc = await storeDocument(trx, {
          owner: queuedBy,
          partnerId: null,
          kind: 'lead_check',
          filename: `${check}-${leadId}-${run}.pdf`,
          contentType: 'application/pdf',
          bytes: pdf,
        });
        const done = await trx
          .updateTable('lead_checks')
          .set({
            runtime_status: 'finished',
            finished_at: finishedAt,
            result: outcome.summary,
            error_msg: null,
            document_name: joinDocumentNames([documentName(doc.id, doc.filename)]),
          })
          .where('lead_id', '=', leadId)
          .where('check_type', '=', check)
          .where('run', '=', run)
          .where('runtime_status', '=', 'started')
          .returning('check_type')
          .executeTakeFirst();
        if (!done) throw new Error('The check was re-run while it ran; this result is dropped');
        await audit(trx, {
          actor: null,
          action: 'lead.check',
          subject: `lead ${leadId}`,
          details: {
            check,
            run,
            outcome: outcome.verdict,
            description: `${check} check of lead ${leadId} finished: ${outcome.verdict === 'hit' ? 'finding' : 'clear'} (${provider.sandbox ? 'sandbox' : provider.name})`,
          },
        });
        // Spec §4: when all four automatic checks have finished, Run Validations is complete. Each check finishes
        // in a transaction of its own: two finishing at once would each miss the other's result (READ COMMITTED)
        // and neither would complete the step. The lead's lock makes the later one wait for the earlier's commit.
        await sql`select pg_advisory_xact_lock(hashtext('lead_checks'), hashtext(${leadId}))`.execute(trx);
        if (allAutomaticChecksFinished(await checkStates(trx, leadId), finishedAt)) {
          const step = await currentStep(trx, leadId);
          const next = stepAfterChecksFinished(step);
          if (next !== step) await setStep(trx, leadId, next);
        }
        return `${check}: ${outcome.verdict}`;
      });
    }
  };
  return Object.fromEntries(AUTOMATIC_CHECKS.map((c) => [c, make(c)])) as CheckJobs;
}

/** How a lead document is named to DownloadDocument: its id, then its file name. */
export const documentName = (id: number, filename: string) => `${id}-${filename}`;
export function documentIdOf(name: string): number | null {
  const m = /^(\d{1,9})-[^|]+$/.exec(name);
  return m ? Number(m[1]) : null;
}

async function stop(
  db: Parameters<typeof setStep>[0],
  leadId: string,
  check: AutomaticCheck,
  run: number,
  message: string,
) {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('lead_checks')
      .set({ runtime_status: 'stopped', finished_at: new Date(), error_msg: message })
      .where('lead_id', '=', leadId)
      .where('check_type', '=', check)
      .where('run', '=', run)
      .where('runtime_status', 'in', ['initiated', 'started'])
      .execute();
    await audit(trx, {
      actor: null,
      action: 'lead.check',
      subject: `lead ${leadId}`,
      details: {
        check,
        run,
        outcome: 'stopped',
        description: `${check} check of lead ${leadId} stopped: ${message}`,
      },
    });
  });
  return `${check}: stopped`;
}
