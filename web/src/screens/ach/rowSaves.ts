/**
 * Edits of one ACH row go to the server one after another, each with the row version it was based on, so the
 * server can refuse an edit to a row someone else changed (409) instead of overwriting their change.
 *
 * A cell's edit is based on the version the row had when the user began it. The user's own saves move the
 * version on too: tabbing from one cell of a row to the next sends the second edit while the first is on its
 * way. Such an edit is based on the row as this user left it, so its version follows this client's own saves
 * from the version it started with (3 → 4 by my comment, so my Used reserve, begun at 3, is sent as 4). A change
 * by anyone else is not in that chain and is refused as it should be.
 */
export interface RowSaves {
  /**
   * Runs `send` after every earlier save of the row has settled, with the version to send; `send` answers the
   * version the row now has.
   */
  save: <T>(
    rowId: string,
    startedAt: number,
    send: (version: number) => Promise<{ version: number; result: T }>,
  ) => Promise<T>;
  /** The version an edit begun at `startedAt` is sent with now. */
  versionFor: (rowId: string, startedAt: number) => number;
}

export function createRowSaves(): RowSaves {
  const queues = new Map<string, Promise<unknown>>();
  // Per row: a version this client saved from → the version that save produced.
  const ownSaves = new Map<string, Map<number, number>>();

  const versionFor = (rowId: string, startedAt: number) => {
    const next = ownSaves.get(rowId);
    let version = startedAt;
    const seen = new Set<number>();
    while (next?.has(version) && !seen.has(version)) {
      seen.add(version);
      version = next.get(version) ?? version;
    }
    return version;
  };

  const save: RowSaves['save'] = (rowId, startedAt, send) => {
    const earlier = queues.get(rowId) ?? Promise.resolve();
    const run = earlier.then(async () => {
      const version = versionFor(rowId, startedAt);
      const answer = await send(version);
      const saves = ownSaves.get(rowId) ?? new Map<number, number>();
      saves.set(version, answer.version);
      ownSaves.set(rowId, saves);
      return answer.result;
    });
    // The next save waits for this one whether it succeeds or fails.
    const settled = run.catch(() => undefined);
    queues.set(rowId, settled);
    void settled.then(() => {
      if (queues.get(rowId) === settled) queues.delete(rowId);
    });
    return run;
  };

  return { save, versionFor };
}
