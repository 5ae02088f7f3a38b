import { holdsDemoData, liveDemoJob } from './areas/demo/jobs';
import { cleanupJob } from './areas/jobs/jobs';
import { partnersImportJob } from './areas/partners/importJob';
import type { Db } from './db/connect';
import { type Crm, SandboxCrm } from './platform/crm';
import type { JobDefinition } from './platform/jobs';

/**
 * Every background job this server declares; each area adds its own here. The live demo is declared only on
 * a database the demo seed filled (its marker), so it never runs, nor is scheduled, on real data.
 */
export function jobDefinitions(options: { liveDemo?: boolean; crm?: Crm } = {}): JobDefinition[] {
  return [
    cleanupJob,
    partnersImportJob(options.crm ?? new SandboxCrm()),
    ...(options.liveDemo ? [liveDemoJob] : []),
  ];
}

export { holdsDemoData, liveDemoJob };

/** The definitions for this database. */
export async function jobDefinitionsFor(db: Db, crm?: Crm): Promise<JobDefinition[]> {
  return jobDefinitions({ liveDemo: await holdsDemoData(db), ...(crm ? { crm } : {}) });
}
