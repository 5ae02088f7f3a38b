/**
 * Who may do what. The older system decided this in the browser from the department cookie and from
 * hard-coded e-mail allow-lists; here the same rules are data (department + granted capabilities) and
 * the server enforces them on every route. The web app uses the same functions only to hide what a
 * user cannot use.
 */

export const DEPARTMENTS = ['admin', 'sales_admin', 'finance_admin', 'sales', 'finance'] as const;
export type Department = (typeof DEPARTMENTS)[number];

export const DEPARTMENT_LABELS: Record<Department, string> = {
  admin: 'Admin',
  sales_admin: 'Sales admin',
  finance_admin: 'Finance admin',
  sales: 'Sales',
  finance: 'Finance',
};

/**
 * What each department is for, shown where one is chosen. The spec lists three departments (sales, finance,
 * admin); the product keeps five because its role rules (DEPARTMENT_RULES) give the two *_admin
 * departments powers plain sales and finance staff lack: imports and Upload Data.
 */
export const DEPARTMENT_DESCRIPTIONS: Record<Department, string> = {
  admin:
    'Everything: registers users and sets their permissions, reads the audit log and outbox, imports and Upload Data.',
  sales_admin:
    'Sales staff who also import reports (Partners, Self Serve, Residual Self Serve) and use Upload Data.',
  finance_admin: 'Finance staff who also use Upload Data.',
  sales:
    'Dashboards and reports; no imports or Upload Data. Capabilities such as Leads are granted on the Users screen.',
  finance:
    'Dashboards and reports; no imports or Upload Data. Capabilities such as ACH editing are granted on the Users screen.',
};

/** Named capabilities that replace the spec's e-mail allow-lists. Granted per user by an admin. */
export const CAPABILITIES = [
  'bi',
  'leads',
  'partners_edit',
  'ach_edit',
  'pci_restricted',
  'pci_ach_billing',
  'pci_fees',
  'pci_historic_edit',
  'bonus_edit',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const CAPABILITY_LABELS: Record<Capability, { label: string; description: string }> = {
  bi: { label: 'Business Intelligence', description: 'Open the Business Intelligence screen' },
  leads: { label: 'Leads', description: 'Onboard leads and send them for approval' },
  partners_edit: {
    label: 'Partner editing',
    description: 'Add group IDs, see last utilized group IDs, edit rev shares',
  },
  ach_edit: { label: 'ACH editing', description: 'Work returned ACH debits (resolution, reserve, notes)' },
  pci_restricted: { label: 'PCI restricted tabs', description: 'See the PCI Old Merchants and Config tabs' },
  pci_ach_billing: { label: 'PCI ACH billing run', description: 'Run the PCI ACH billing file' },
  pci_fees: { label: 'PCI fee editing', description: 'Save default fees, fee and frequency exceptions' },
  pci_historic_edit: {
    label: 'PCI historic-merchant editing',
    description: 'Change old merchants’ status, T/R and DDA',
  },
  bonus_edit: {
    label: 'Bonus editing',
    description: 'Edit bonus specifications; mark bonuses do-not-pay, notes and do-not-clawback',
  },
};

/** Rules that follow from the department alone (spec documents 1 §6, 2 §6). */
const DEPARTMENT_RULES = {
  /** Register users, manage users and their permissions, read the audit log. */
  manage_users: ['admin'],
  /** Read the e-mail outbox (every mail PayDesk sends, with its delivery state). */
  read_outbox: ['admin'],
  /** See background jobs and schedules, and run a failed job again. */
  manage_jobs: ['admin'],
  /** Import XLSX on Partners, Self Serve and Residual Self Serve. */
  import_reports: ['admin', 'sales_admin'],
  /** The Upload Data screen. */
  upload_data: ['admin', 'finance_admin', 'sales_admin'],
  /** Set the monthly processing budgets per bank (the Processing screen). */
  edit_budgets: ['admin', 'finance_admin'],
} as const satisfies Record<string, readonly Department[]>;

export type DepartmentRule = keyof typeof DEPARTMENT_RULES;
export type Permission = DepartmentRule | Capability;

export interface Principal {
  department: Department;
  capabilities: readonly Capability[];
}

export function isDepartment(value: string): value is Department {
  return (DEPARTMENTS as readonly string[]).includes(value);
}

export function isCapability(value: string): value is Capability {
  return (CAPABILITIES as readonly string[]).includes(value);
}

export function hasPermission(user: Principal, permission: Permission): boolean {
  if (isCapability(permission)) return user.capabilities.includes(permission);
  return (DEPARTMENT_RULES[permission] as readonly Department[]).includes(user.department);
}

/**
 * Partner staff: users bound to an ISO. They may be in these departments only and hold no capabilities, so the
 * admin, upload and import rules and every editing capability stay with internal staff. The database enforces
 * the same rule.
 */
export const PARTNER_DEPARTMENTS = ['sales', 'finance'] as const satisfies readonly Department[];

/** Why a user with these rights cannot be bound to an ISO, or null when they can. */
export function partnerStaffProblem(user: Principal & { isoId: number | null }): string | null {
  if (user.isoId === null) return null;
  if (!(PARTNER_DEPARTMENTS as readonly Department[]).includes(user.department))
    return 'A user bound to an ISO can only be in the Sales or Finance department';
  if (user.capabilities.length > 0) return 'A user bound to an ISO cannot hold capabilities';
  return null;
}
