import { loadConfig } from '../../config';
import { configurePiiKeys } from '../../platform/pii';
import { connect } from '../connect';
import { migrateToLatest } from '../migrate';
import { seedAchIfMissing } from './ach';
import { seedBonusIfMissing } from './bonus';
import { isEmpty, seedDemo } from './index';
import { seedLeadsIfMissing } from './leads';
import { seedPciIfMissing } from './pci';

/**
 * Seeds the configured database (DATABASE_URL or the embedded one) at SEED_SCALE if it is empty:
 * `npm run seed -w server`. Used by the benchmark to prepare the large scale.
 */
const config = loadConfig();
const { db, kind, close } = await connect({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir });
await migrateToLatest(db);
configurePiiKeys(config);
if (await isEmpty(db)) {
  const password = config.DEMO_PASSWORD;
  if (!password) throw new Error('Set DEMO_PASSWORD for the demo users of the seeded database');
  const report = await seedDemo(db, {
    password,
    scale: config.SEED_SCALE,
    log: (l) => console.log(l),
    staged: kind === 'postgres',
  });
  console.log(`Seeded ${config.SEED_SCALE} scale in ${report.seconds} s`);
} else {
  // A demo database seeded before a newer area's tables existed gets that area's rows.
  const ach = await seedAchIfMissing(db, (l) => console.log(l));
  const bonus = await seedBonusIfMissing(db, (l) => console.log(l));
  if (bonus) console.log(`Added ${bonus.runs} bonus runs.`);
  const pci = await seedPciIfMissing(db, (l) => console.log(l));
  if (pci) console.log(`Added ${pci.merchants} PCI merchants.`);
  const leads = await seedLeadsIfMissing(db, (l) => console.log(l));
  if (leads) console.log(`Added ${leads} CRM leads.`);
  console.log(
    ach
      ? `The database already had data; added ${ach.returns} ACH returns and ${ach.entries} ACH debit entry days.`
      : 'The database already has data; nothing seeded.',
  );
}
await close();
