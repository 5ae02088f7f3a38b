// Starts a worker thread written in TypeScript: registers tsx's loader in the worker (a worker does not inherit
// the main thread's loaders), then loads the entry file named by the spawner.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
