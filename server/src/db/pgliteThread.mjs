// The embedded database's thread (see embeddedDatabase.ts, which starts it and speaks to it). PGlite runs PostgreSQL
// compiled to WebAssembly on the thread that calls it, and a statement runs to its end before that thread does
// anything else: on the server's main thread, a 60 ms statement held back every other request for 60 ms, sign-in
// first (issue 18). Here it holds back only this thread. Plain JavaScript, so that it starts however the server was
// started (tsx, the test runner), without a TypeScript loader of its own.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const INT8 = 20;
const DATE = 1082;

/** A PGlite error as data: its message and PostgreSQL's fields (code, detail, constraint, …), which the server reads. */
function asData(err) {
  const data = { message: err instanceof Error ? err.message : String(err) };
  if (err && typeof err === 'object')
    for (const [key, value] of Object.entries(err))
      if (typeof value === 'string' || typeof value === 'number') data[key] = value;
  return data;
}

/** @type {PGlite | null} */
let pglite = null;
try {
  // Both databases give the same JSON: counts (int8) as numbers, `date` as 'YYYY-MM-DD' text (db/connect.ts).
  pglite = await PGlite.create(workerData.dir, {
    parsers: { [INT8]: (v) => Number(v), [DATE]: (v) => v },
    ...(workerData.dataDir ? { loadDataDir: new Blob([workerData.dataDir]) } : {}),
  });
  parentPort.postMessage({ ready: true });
} catch (err) {
  parentPort.postMessage({ ready: false, error: asData(err) });
}

/** One request at a time, in the order they came: the main thread's lock already orders them. */
let queue = Promise.resolve();
parentPort.on('message', (request) => {
  queue = queue.then(() => answer(request));
});

async function answer({ id, op, sql, params, blob }) {
  try {
    if (!pglite) throw new Error('The embedded database did not start');
    if (op === 'query') {
      const result = await pglite.query(sql, params, blob ? { blob: new Blob([blob]) } : undefined);
      parentPort.postMessage({ id, rows: result.rows, affectedRows: result.affectedRows });
    } else if (op === 'exec') {
      // Several statements in one text (pg-boss's schema): the last one's rows are the answer.
      const results = await pglite.exec(sql);
      parentPort.postMessage({ id, rows: results.at(-1)?.rows ?? [] });
    } else if (op === 'dump') {
      const data = await (await pglite.dumpDataDir('none')).arrayBuffer();
      parentPort.postMessage({ id, data }, [data]);
    } else if (op === 'close') {
      if (!pglite.closed) await pglite.close();
      parentPort.postMessage({ id });
    } else throw new Error(`Unknown request ${op}`);
  } catch (err) {
    parentPort.postMessage({ id, error: asData(err) });
  }
}
