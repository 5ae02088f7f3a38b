import { type Kysely, type MigrationResultSet, Migrator } from 'kysely';
import { migrations } from './migrations/index';

/** Runs one step of the migrator over every migration, and throws naming the migration that failed. */
async function migrate<T>(db: Kysely<T>, step: (migrator: Migrator) => Promise<MigrationResultSet>) {
  const { error, results } = await step(
    new Migrator({ db, provider: { getMigrations: async () => migrations } }),
  );
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  await migrate(db, (m) => m.migrateToLatest());
}

/** Runs the migrations up to and including `name` (tests of a migration over a database made before it). */
export async function migrateUpTo<T>(db: Kysely<T>, name: string): Promise<void> {
  await migrate(db, (m) => m.migrateTo(name));
}
