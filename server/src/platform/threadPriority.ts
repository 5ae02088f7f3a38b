import { access } from 'node:fs/promises';
import os from 'node:os';

/**
 * Sign-in's argon2 before the server's other work, within the server's own process (issue 18). A sign-in is about
 * 7 ms of argon2 on a thread of libuv's pool and a few ms of this (the main) thread; everyone else's requests are
 * this thread's work. On two cores under heavy work argon2 shared a core evenly with this thread and waited for it.
 * Once the pool's threads have started (a thread keeps the priority it was started at), this thread lowers its own
 * a little, so that when both want a core argon2 goes first, as everything goes before an export's spreadsheet
 * thread (nice 10). The database's threads and processes keep theirs. Measured in the contention bench
 * (docs/bench.md): sign-in's median under heavy work 18.5–21.3 ms at 5 against 21.8–23.4 ms at 0.
 *
 * On Linux a nice value is a thread's own (setpriority on 0 is the calling thread); elsewhere this does nothing.
 * Lowering is always allowed; nothing raises it back. Only the server's entry point (main.ts) calls it.
 */
export const MAIN_THREAD_NICE = 5;

export async function putSignInFirst(): Promise<void> {
  if (process.platform !== 'linux') return;
  // Any file operation runs on libuv's pool: after it, the pool's threads exist, started at this thread's priority.
  await access(import.meta.filename);
  try {
    if (os.getPriority(0) < MAIN_THREAD_NICE) os.setPriority(0, MAIN_THREAD_NICE);
  } catch (err) {
    // A sandbox that refuses even lowering: the server runs as before.
    console.warn(`The main thread's priority was left as it was (${(err as Error).message}).`);
  }
}
