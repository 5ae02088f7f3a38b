import { type Kysely, Migrator } from 'kysely';
import { migrations } from './migrations/index';

export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Runs the migrations up to and including `name` (tests of a migration over a database made before it). */
export async function migrateUpTo<T>(db: Kysely<T>, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateTo(name);
  if (error || results?.some((r) => r.status === 'Error')) {
    throw new Error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
