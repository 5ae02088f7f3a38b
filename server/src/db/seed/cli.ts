import { loadConfig } from '../../config';
import { connect } from '../connect';
import { migrateToLatest } from '../migrate';
import { seedAchIfMissing } from './ach';
import { seedBonusIfMissing } from './bonus';
import { isEmpty, seedDemo } from './index';

/**
 * Seeds the configured database (DATABASE_URL or the embedded one) at SEED_SCALE if it is empty:
 * `npm run seed -w server`. Used by the benchmark to prepare the large scale.
 */
const config = loadConfig();
const { db, close } = await connect({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir });
await migrateToLatest(db);
if (await isEmpty(db)) {
  const password = config.DEMO_PASSWORD;
  if (!password) throw new Error('Set DEMO_PASSWORD for the demo users of the seeded database');
  const report = await seedDemo(db, { password, scale: config.SEED_SCALE, log: (l) => console.log(l) });
  console.log(`Seeded ${config.SEED_SCALE} scale in ${report.seconds} s`);
} else {
  // A demo database seeded before a newer area's tables existed gets that area's rows.
  const ach = await seedAchIfMissing(db, (l) => console.log(l));
  const bonus = await seedBonusIfMissing(db, (l) => console.log(l));
  if (bonus) console.log(`Added ${bonus.runs} bonus runs.`);
  console.log(
    ach
      ? `The database already had data; added ${ach.returns} ACH returns and ${ach.entries} ACH debit entry days.`
      : 'The database already has data; nothing seeded.',
  );
}
await close();
