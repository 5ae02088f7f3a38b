import { describe, expect, it } from 'vitest';
import { createRowSaves } from './rowSaves';

/** A server stand-in: one row version, refusing an edit based on an older one (409), as /api/updateACH does. */
function fakeServer(version: number) {
  const sent: number[] = [];
  const pending: (() => void)[] = [];
  return {
    sent,
    otherEditor: () => {
      version += 1;
    },
    /** The send of one save; answers only when `release` is called, so saves overlap as in a browser. */
    send: (v: number) =>
      new Promise<{ version: number; result: string }>((resolve, reject) => {
        sent.push(v);
        pending.push(() => {
          if (v !== version) reject(new Error('409'));
          else {
            version += 1;
            resolve({ version, result: `saved at ${version}` });
          }
        });
      }),
    release: async () => {
      await Promise.resolve();
      await Promise.resolve();
      pending.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

describe('createRowSaves', () => {
  it('sends a second edit of the row after the first, with the version the first produced', async () => {
    const server = fakeServer(3);
    const saves = createRowSaves();
    // Both edits began on the row as loaded (version 3): the user tabbed from one cell to the next.
    const first = saves.save('0-1', 3, server.send);
    const second = saves.save('0-1', 3, server.send);
    await server.release();
    await expect(first).resolves.toBe('saved at 4');
    await server.release();
    await expect(second).resolves.toBe('saved at 5');
    expect(server.sent).toEqual([3, 4]);
  });

  it('still refuses an edit when someone else changed the row since it was loaded', async () => {
    const server = fakeServer(3);
    const saves = createRowSaves();
    server.otherEditor();
    const edit = saves.save('0-1', 3, server.send);
    await server.release();
    await expect(edit).rejects.toThrow('409');
    expect(saves.versionFor('0-1', 3)).toBe(3);
  });

  it('does not carry one row’s versions to another row', async () => {
    const server = fakeServer(3);
    const saves = createRowSaves();
    const a = saves.save('0-1', 3, server.send);
    await server.release();
    await a;
    expect(saves.versionFor('0-1', 3)).toBe(4);
    expect(saves.versionFor('1-1', 3)).toBe(3);
  });

  it('goes on after a failed save: the next edit waits for it and is sent', async () => {
    const server = fakeServer(5);
    const saves = createRowSaves();
    const failed = saves.save('0-2', 4, server.send);
    const next = saves.save('0-2', 5, server.send);
    await server.release();
    await expect(failed).rejects.toThrow('409');
    await server.release();
    await expect(next).resolves.toBe('saved at 6');
    expect(server.sent).toEqual([4, 5]);
  });

  it('follows a chain of the user’s own saves from where an edit began', async () => {
    const server = fakeServer(1);
    const saves = createRowSaves();
    for (let i = 0; i < 3; i++) {
      const save = saves.save('0-9', saves.versionFor('0-9', 1), server.send);
      await server.release();
      await save;
    }
    expect(saves.versionFor('0-9', 1)).toBe(4);
    expect(saves.versionFor('0-9', 2)).toBe(4);
  });
});
