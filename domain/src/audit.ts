import { CAPABILITY_LABELS, DEPARTMENT_LABELS } from './access';

/** Every action the server writes to the audit log (server/src/platform/audit.ts and its callers). */
export const AUDIT_ACTIONS = [
  'signin.success',
  'signin.failure',
  'signin.locked',
  'signin.throttled',
  'signout',
  'password.change',
  'password.reset_request',
  'password.reset',
  'user.register',
  'user.update',
  'user.partner_rule',
  'pii.reveal',
  'job.rerun',
  'partner.group_add',
  'partner.rev_share',
  'partner.import',
  'partner.upload',
  'processing.budget',
  'bonus.run',
  'bonus.spec',
  'bonus.mark',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Short names of the actions, for the action filter and column. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'signin.success': 'Signed in',
  'signin.failure': 'Sign-in refused',
  'signin.locked': 'Account locked',
  'signin.throttled': 'Sign-in held back',
  signout: 'Signed out',
  'password.change': 'Password changed',
  'password.reset_request': 'Password reset asked',
  'password.reset': 'Password reset',
  'user.register': 'User registered',
  'user.update': 'User changed',
  'user.partner_rule': 'Partner rights removed',
  'pii.reveal': 'Sensitive field shown',
  'job.rerun': 'Job run again',
  'partner.group_add': 'Group ID added',
  'partner.rev_share': 'Rev share changed',
  'partner.import': 'Partners imported from the CRM',
  'partner.upload': 'Partners imported from XLSX',
  'processing.budget': 'Processing budget set',
  'bonus.run': 'Bonus run',
  'bonus.spec': 'Bonus specification changed',
  'bonus.mark': 'Bonus row marked',
};

/** What the log stores about one entry, as the description needs it. */
export interface AuditFacts {
  action: string;
  subject: string | null;
  details: Record<string, unknown> | null;
}

const SIGNIN_REFUSALS: Record<string, string> = {
  'unknown email': 'no such account',
  'wrong password': 'wrong password',
  locked: 'the account is locked',
  inactive: 'the account is deactivated',
};

const isAction = (action: string): action is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(action);

const department = (code: unknown) =>
  typeof code === 'string' && code in DEPARTMENT_LABELS
    ? DEPARTMENT_LABELS[code as keyof typeof DEPARTMENT_LABELS]
    : String(code);

const capability = (code: unknown) =>
  typeof code === 'string' && code in CAPABILITY_LABELS
    ? CAPABILITY_LABELS[code as keyof typeof CAPABILITY_LABELS].label
    : String(code);

const list = (items: readonly string[]) => items.join(', ');

/** The before and after of one changed field, as user.update records them: { field: [before, after] }. */
function change(details: Record<string, unknown>, field: string): [unknown, unknown] | null {
  const value = details[field];
  return Array.isArray(value) && value.length === 2 ? [value[0], value[1]] : null;
}

/** The clauses of a user.update entry, one per changed field, each naming the account. */
function userChanges(who: string, details: Record<string, unknown>): string[] {
  const out: string[] = [];
  const dept = change(details, 'department');
  if (dept)
    out.push(`changed the department of ${who} from ${department(dept[0])} to ${department(dept[1])}`);
  const caps = change(details, 'capabilities');
  if (caps) {
    const before = Array.isArray(caps[0]) ? caps[0].map(String) : [];
    const after = Array.isArray(caps[1]) ? caps[1].map(String) : [];
    const given = after.filter((c) => !before.includes(c)).map(capability);
    const taken = before.filter((c) => !after.includes(c)).map(capability);
    if (given.length > 0) out.push(`gave ${who} ${list(given)}`);
    if (taken.length > 0) out.push(`took ${list(taken)} away from ${who}`);
  }
  const active = change(details, 'active');
  if (active) out.push(`${active[1] ? 'reactivated' : 'deactivated'} ${who}`);
  const locked = change(details, 'locked');
  if (locked && locked[1] === false) out.push(`unlocked ${who}`);
  const iso = change(details, 'isoName');
  if (iso) {
    const [from, to] = iso;
    if (from === null) out.push(`bound ${who} to the ISO ${String(to)}`);
    else if (to === null) out.push(`released ${who} from the ISO ${String(from)}`);
    else out.push(`moved ${who} from the ISO ${String(from)} to ${String(to)}`);
  }
  return out;
}

/** A stored fraction ("0.8000") as the percentage users enter. */
const percent = (fraction: unknown) =>
  typeof fraction === 'string' || typeof fraction === 'number'
    ? `${Number((Number(fraction) * 100).toFixed(2))}%`
    : '?';
const count = (n: unknown) => (typeof n === 'number' ? String(n) : '0');

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One audit entry in words, e.g. "Changed the department of x@y.example from Sales to Finance". */
export function describeAudit({ action, subject, details }: AuditFacts): string {
  const who = subject ?? 'an unknown account';
  const facts = details ?? {};
  if (!isAction(action)) {
    const extra = Object.keys(facts).length > 0 ? ` ${JSON.stringify(facts)}` : '';
    return `${action}${subject ? ` (${subject})` : ''}${extra}`;
  }
  switch (action) {
    case 'signin.success':
      return 'Signed in';
    case 'signin.failure': {
      const reason =
        typeof facts.reason === 'string' ? (SIGNIN_REFUSALS[facts.reason] ?? facts.reason) : null;
      return `Sign-in as ${who} refused${reason ? `: ${reason}` : ''}`;
    }
    case 'signin.locked':
      return `Locked ${who} for 30 minutes after too many wrong passwords`;
    case 'signin.throttled':
      return `Sign-in as ${who} held back: too many failed sign-ins from this address`;
    case 'signout':
      return 'Signed out';
    case 'password.change':
      return 'Changed their password';
    case 'password.reset_request':
      return facts.unknown
        ? `Password reset asked for ${who}, which has no account (no e-mail sent)`
        : 'Asked for a password reset link';
    case 'password.reset':
      return 'Reset their password with an e-mailed link';
    case 'user.register':
      return `Registered ${who}${facts.department ? ` in ${department(facts.department)}` : ''}`;
    case 'user.update': {
      const clauses = userChanges(who, facts);
      return clauses.length > 0 ? sentence(clauses.join('; ')) : `Saved ${who} without changes`;
    }
    case 'user.partner_rule': {
      // Written once by the migration that made partner staff sales or finance with no capabilities.
      const clauses = userChanges(who, facts);
      const caps = Array.isArray(facts.removedCapabilities) ? facts.removedCapabilities.map(capability) : [];
      if (caps.length > 0) clauses.push(`took ${list(caps)} away from ${who}`);
      return `${sentence(clauses.join('; ') || `checked ${who}`)} (partner staff hold no staff rights)`;
    }
    case 'pii.reveal': {
      // Written by revealPii (server/src/platform/pii.ts); the value itself is never recorded.
      const field = typeof facts.field === 'string' ? facts.field : 'a sensitive field';
      return `Showed ${field} of ${who} in clear`;
    }
    case 'job.rerun': {
      const title = typeof facts.title === 'string' ? facts.title : 'a job';
      return `Ran ${title} again after it failed (job ${facts.failedJob ?? '?'}, new run ${facts.newJob ?? '?'})`;
    }
    case 'partner.group_add':
      return `Added the ${facts.bank ?? ''} group ${facts.groupId ?? '?'} (association ${facts.association ?? '?'}, rev share ${percent(facts.revShare)}) to ${who}`;
    case 'partner.rev_share':
      return `Changed the rev share of group ${facts.groupId ?? '?'} of ${who} from ${percent(facts.from)} to ${percent(facts.to)}`;
    case 'partner.import':
      return `Imported partners from the CRM: ${count(facts.accountsAdded)} accounts added, ${count(facts.accountsChanged)} changed, ${count(facts.accountsInactivated)} marked inactive; ${count(facts.groupsAdded)} groups added, ${count(facts.groupsChanged)} changed`;
    case 'partner.upload':
      return `Imported ${count(facts.rows)} partner accounts from XLSX (${count(facts.added)} added, ${count(facts.changed)} changed)`;
    case 'processing.budget': {
      const money = (v: unknown) =>
        v === null || v === undefined ? 'none' : `$${Number(v).toLocaleString('en-US')}`;
      return `Set the processing budget of ${who} from ${money(facts.old)} to ${money(facts.new)}`;
    }
    case 'bonus.run':
    case 'bonus.spec':
    case 'bonus.mark':
      // The bonus area words its entries as it writes them: they are the bonus Activity Logs tab (log type BNS).
      return typeof facts.description === 'string' ? facts.description : AUDIT_ACTION_LABELS[action];
  }
}
