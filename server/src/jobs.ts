import { cleanupJob } from './areas/jobs/jobs';
import type { JobDefinition } from './platform/jobs';

/** Every background job this server declares; each area adds its own here. */
export function jobDefinitions(): JobDefinition[] {
  return [cleanupJob];
}
