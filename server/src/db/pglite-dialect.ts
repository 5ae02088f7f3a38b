import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { isCopyIn } from './copy';
import type { EmbeddedDatabase } from './embeddedDatabase';

/**
 * Kysely over PGlite. PGlite is a single connection, so a mutex decides who uses it: a transaction holds it from
 * `begin` to `commit`/`rollback`, so no other query can slip into it, and a statement outside a transaction holds
 * it only while that statement runs. A request that streams a large answer after its transaction (from a held
 * cursor, to a slow client) therefore leaves the database free between its fetches.
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly pglite: EmbeddedDatabase,
    private readonly mutex: Mutex,
  ) {}
  createAdapter(): DialectAdapter {
    return new PGliteAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.mutex);
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

/** PostgreSQL's adapter; it marks a Kysely instance, and each of its transactions, as the embedded database's. */
class PGliteAdapter extends PostgresAdapter {}

/**
 * Whether `db` is a transaction of the embedded database: it holds the only connection until it ends, so anyone
 * else's statement waits for it (platform/signinFirst.ts: bulk work holding it does not wait for a sign-in).
 */
export const holdsOnlyConnection = (db: Pick<Kysely<unknown>, 'isTransaction' | 'getExecutor'>): boolean =>
  db.isTransaction && isEmbedded(db);

/** Whether `db` runs on the embedded database: one statement at a time, whoever asks (platform/heldCursor.ts). */
export const isEmbedded = (db: Pick<Kysely<unknown>, 'getExecutor'>): boolean =>
  db.getExecutor().adapter instanceof PGliteAdapter;

/** Marks work that goes first when it waits for the embedded database's connection. */
const urgentWork = new AsyncLocalStorage<true>();

/** Runs `work` (a sign-in: platform/signinFirst.ts) ahead of everyone waiting for the embedded database. */
export const urgently = <T>(work: () => Promise<T>): Promise<T> => urgentWork.run(true, work);

/**
 * Who holds PGlite's single connection: shared by the Kysely dialect and every other user (pg-boss). Waiters get
 * it in the order they came, except urgent work (`urgently`), which goes before every waiter that is not urgent.
 */
export class Mutex {
  private held = false;
  private readonly waiting: { urgent: boolean; grant: () => void }[] = [];

  lock(): Promise<() => void> {
    const urgent = urgentWork.getStore() === true;
    return new Promise((resolve) => {
      const grant = () => {
        this.held = true;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.held = false;
          this.waiting.shift()?.grant();
        });
      };
      if (!this.held) grant();
      else {
        const at = urgent ? this.waiting.findIndex((w) => !w.urgent) : -1;
        this.waiting.splice(at < 0 ? this.waiting.length : at, 0, { urgent, grant });
      }
    });
  }
}

class PGliteDriver implements Driver {
  constructor(
    private readonly pglite: EmbeddedDatabase,
    private readonly mutex: Mutex,
  ) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this.pglite, this.mutex);
  }
  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await (conn as PGliteConnection).begin(`begin${isolation}`);
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as PGliteConnection).end('commit');
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as PGliteConnection).end('rollback');
  }
  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    // A connection given back in the middle of a transaction (an error between begin and commit) must not keep
    // the database locked.
    await (conn as PGliteConnection).end('rollback');
  }
  async destroy(): Promise<void> {
    await this.pglite.close();
  }
}

let cursorSeq = 0;

class PGliteConnection implements DatabaseConnection {
  /** Set while this connection's transaction holds the database. */
  private unlock: (() => void) | null = null;

  constructor(
    private readonly pglite: EmbeddedDatabase,
    private readonly mutex: Mutex,
  ) {}

  async begin(statement: string): Promise<void> {
    if (this.unlock) throw new Error('A transaction is already open on this connection');
    const unlock = await this.mutex.lock();
    try {
      await this.pglite.query(statement);
    } catch (err) {
      unlock();
      throw err;
    }
    this.unlock = unlock;
  }

  async end(statement: 'commit' | 'rollback'): Promise<void> {
    const unlock = this.unlock;
    if (!unlock) return;
    try {
      await this.pglite.query(statement);
    } finally {
      this.unlock = null;
      unlock();
    }
  }

  /** Runs `work` holding the database: inside this connection's transaction, or alone for its duration. */
  private async exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.unlock) return work();
    const unlock = await this.mutex.lock();
    try {
      return await work();
    } finally {
      unlock();
    }
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { parameters } = compiled;
    if (isCopyIn(parameters)) {
      // PGlite has no COPY FROM STDIN: it reads a COPY's data from the file /dev/blob, which it maps to the blob.
      // A COPY from a file needs a superuser, which PGlite's connection is; imports run as staff, never under the
      // ISO role.
      const fromBlob = compiled.sql.replace(/from stdin$/i, "from '/dev/blob'");
      await this.exclusive(() => this.pglite.query(fromBlob, [], parameters[0].data));
      return { rows: [] };
    }
    const result = await this.exclusive(() => this.pglite.query<R>(compiled.sql, [...parameters]));
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && !/^\s*select/i.test(compiled.sql)
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    };
  }
  /**
   * Streams through a server-side cursor, so large results are read in chunks. Like PostgreSQL's cursors it
   * needs a transaction: every request runs in one (platform/http.ts).
   */
  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 1000): AsyncIterableIterator<QueryResult<R>> {
    const name = `kysely_stream_${++cursorSeq}`;
    await this.exclusive(() =>
      this.pglite.query(`declare ${name} no scroll cursor for ${compiled.sql}`, [...compiled.parameters]),
    );
    try {
      for (;;) {
        const { rows } = await this.exclusive(() =>
          this.pglite.query<R>(`fetch ${Math.max(1, Math.floor(chunkSize))} from ${name}`),
        );
        if (rows.length === 0) return;
        yield { rows };
      }
    } finally {
      await this.exclusive(() => this.pglite.query(`close ${name}`)).catch(() => undefined);
    }
  }
}

/**
 * Raw SQL for a library that brings its own statements (pg-boss), behind the same lock as Kysely, each
 * statement alone. A parameterless text may hold several statements (pg-boss's schema is one such string),
 * which PGlite's `query` (a prepared statement) refuses: it runs through `exec`, which answers each
 * statement's result; the last one is the answer.
 */
export function pgliteExecuteSql(pglite: EmbeddedDatabase, mutex: Mutex) {
  return async (text: string, values: readonly unknown[] = []): Promise<{ rows: unknown[] }> => {
    const unlock = await mutex.lock();
    try {
      if (values.length === 0) return await pglite.exec(text);
      const result = await pglite.query(text, [...values]);
      return { rows: result.rows };
    } finally {
      unlock();
    }
  };
}
