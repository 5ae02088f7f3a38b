// The spreadsheet thread's entry (see spreadsheetThreads.ts). Plain JavaScript, so that it starts however the
// server was started (tsx, the test runner); it registers tsx to load the TypeScript body.
import os from 'node:os';
import { tsImport } from 'tsx/esm/api';

// On Linux a thread has a nice value of its own: pid 0 lowers this thread only, so the kernel gives the main
// thread (sign-in, every other request) and the libuv pool (argon2) the cores first. Elsewhere it would lower the
// whole server, so it is left alone.
if (process.platform === 'linux') os.setPriority(0, 10);

await tsImport('./spreadsheetThread.ts', import.meta.url);
