import fs from 'node:fs';

/**
 * After the run: the folders playwright.config.ts made (the server's seeded database, ~700 MB, and the saved
 * sessions) are removed, so repeated runs do not fill the disk.
 */
export default function teardown() {
  for (const dir of [process.env.E2E_DATA_DIR, process.env.E2E_SESSIONS_DIR]) {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}
