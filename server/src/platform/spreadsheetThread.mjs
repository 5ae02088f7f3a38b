// The spreadsheet thread's entry (see spreadsheetThreads.ts). Plain JavaScript, so that it starts however the
// server was started (tsx, the test runner); it registers tsx to load the TypeScript body. tsx's require hook
// compiles in this thread; its import hooks would start one more thread and engine, about twice the memory and
// start-up time, so the body is required.
import { createRequire } from 'node:module';
import os from 'node:os';
import { register } from 'tsx/cjs/api';

// On Linux a thread has a nice value of its own: pid 0 lowers this thread only, so the kernel gives the main
// thread (sign-in, every other request) and the libuv pool (argon2) the cores first. Elsewhere it would lower the
// whole server, so it is left alone.
if (process.platform === 'linux') os.setPriority(0, 10);

register();
createRequire(import.meta.url)('./spreadsheetThread.ts');
