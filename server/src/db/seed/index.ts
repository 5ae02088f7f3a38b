import { CAPABILITIES, type Capability, type Department } from '@paydesk/domain';
import { createUser } from '../../areas/accounts/queries';
import { hashPassword } from '../../platform/crypto';
import type { Db } from '../connect';
import { generateMerchantData, type Scale, type SeedReport } from './generate';

export interface DemoUser {
  email: string;
  department: Department;
  capabilities: readonly Capability[];
  /** Account name of the ISO the user is bound to (partner staff). */
  iso?: string;
  note: string;
}

/** One user per department and one ISO-bound partner user, with a spread of capabilities. */
export const DEMO_USERS: readonly DemoUser[] = [
  { email: 'admin@paydesk.local', department: 'admin', capabilities: CAPABILITIES, note: 'everything' },
  {
    email: 'sales.admin@paydesk.local',
    department: 'sales_admin',
    capabilities: ['bi', 'leads', 'partners_edit', 'bonus_edit'],
    note: 'imports, partner editing, bonus editing, BI, leads',
  },
  {
    email: 'finance.admin@paydesk.local',
    department: 'finance_admin',
    capabilities: [
      'ach_edit',
      'pci_restricted',
      'pci_ach_billing',
      'pci_fees',
      'pci_historic_edit',
      'underwriter',
    ],
    note: 'uploads, ACH and PCI editing, underwriter (decides leads)',
  },
  { email: 'sales@paydesk.local', department: 'sales', capabilities: ['leads'], note: 'leads' },
  { email: 'finance@paydesk.local', department: 'finance', capabilities: ['ach_edit'], note: 'ACH editing' },
  {
    email: 'partner@summitpayments.example',
    department: 'sales',
    capabilities: [],
    iso: 'Summit Payment Group',
    note: 'partner staff: sees only Summit Payment Group',
  },
];

export async function isEmpty(db: Db): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/**
 * Fills an empty database with the demo data: the merchant data of the chosen scale, then the demo users.
 * Deterministic: the same seed, scale and day give the same rows.
 */
export async function seedDemo(
  db: Db,
  options: {
    password: string;
    scale: Scale;
    today?: Date;
    log?: (line: string) => void;
    /** In stages on two connections (a PostgreSQL server): generateMerchantData. */
    staged?: boolean;
  },
): Promise<SeedReport> {
  const report = await generateMerchantData(db, {
    scale: options.scale,
    today: options.today,
    log: options.log,
    staged: options.staged,
  });
  await db.transaction().execute(async (trx) => {
    const partners = await trx.selectFrom('partners').select(['id', 'account_name']).execute();
    const partnerId = new Map(partners.map((p) => [p.account_name, p.id]));
    const passwordHash = await hashPassword(options.password);
    for (const u of DEMO_USERS) {
      await createUser(trx, {
        email: u.email,
        department: u.department,
        passwordHash,
        capabilities: u.capabilities,
        partnerId: u.iso ? (partnerId.get(u.iso) ?? null) : null,
      });
    }
  });
  return report;
}
