import { AUTOMATIC_CHECKS, type CheckStatus } from '@paydesk/domain/leads/checks';
import type { ApprovalRow, CheckRow, LeadRecord } from '@paydesk/domain/leads/contracts';

/** The picker's group for a lead without an owner. */
export const NO_OWNER = 'No owner';

export interface LeadGroup {
  owner: string;
  leads: LeadRecord[];
}

/** Leads grouped by their owner (the RM), owners in alphabetical order, each group newest first. */
export function groupByOwner(leads: readonly LeadRecord[]): LeadGroup[] {
  const groups = new Map<string, LeadRecord[]>();
  for (const lead of leads) {
    const owner = lead.Real_Owner_del__c?.trim() || NO_OWNER;
    const group = groups.get(owner);
    if (group) group.push(lead);
    else groups.set(owner, [lead]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === NO_OWNER ? 1 : b === NO_OWNER ? -1 : a.localeCompare(b)))
    .map(([owner, list]) => ({
      owner,
      leads: list.sort((a, b) => b.CreatedDate.localeCompare(a.CreatedDate)),
    }));
}

/**
 * The groups that match a search (spec §2.4: by name, company or owner), case-insensitively: a group whose owner
 * matches keeps all its leads, otherwise only the leads whose name or company matches. At most `limit` leads.
 */
export function searchLeads(groups: readonly LeadGroup[], search: string, limit: number): LeadGroup[] {
  const needle = search.trim().toLowerCase();
  const out: LeadGroup[] = [];
  let left = limit;
  for (const group of groups) {
    if (left <= 0) break;
    const ownerMatches = needle === '' || group.owner.toLowerCase().includes(needle);
    const leads = ownerMatches
      ? group.leads
      : group.leads.filter(
          (lead) =>
            lead.Name.toLowerCase().includes(needle) || (lead.Company ?? '').toLowerCase().includes(needle),
        );
    if (leads.length === 0) continue;
    const kept = leads.slice(0, left);
    left -= kept.length;
    out.push({ owner: group.owner, leads: kept });
  }
  return out;
}

/** The lead tabs kept in the address (?open=id1,id2&tab=id1), so a reload or a shared link keeps them. */
export function openLeadsOf(param: string | null): string[] {
  if (!param) return [];
  const ids = param.split(',').filter((id) => /^[A-Za-z0-9]{1,40}$/.test(id));
  return [...new Set(ids)];
}

/** The tab to show after closing one: the one left of it, else the Leads tab. */
export function tabAfterClosing(open: readonly string[], closed: string, shown: string): string {
  if (shown !== closed) return shown;
  const index = open.indexOf(closed);
  return open[index - 1] ?? open[index + 1] ?? 'leads';
}

export type ApprovalStatus = 'Pending' | 'Approved' | 'Rejected';

export function approvalStatus(approval: Pick<ApprovalRow, 'approved'>): ApprovalStatus {
  if (approval.approved === 1) return 'Approved';
  if (approval.approved === 0) return 'Rejected';
  return 'Pending';
}

export const APPROVAL_STATUS_COLORS: Record<ApprovalStatus, string> = {
  Pending: 'yellow',
  Approved: 'teal',
  Rejected: 'red',
};

/** The applicant's name as the cards show it. */
export function applicantName(approval: Pick<ApprovalRow, 'first_name' | 'last_name' | 'lead_id'>): string {
  const name = [approval.first_name, approval.last_name].filter(Boolean).join(' ').trim();
  return name === '' ? approval.lead_id : name;
}

/** A check's runtime (seconds) as '4.2 s' or '3 min 05 s'; '—' before it started. */
export function formatRuntime(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** How long after a Run the client keeps asking while the queued checks wait to be picked up. */
export const PICKUP_WAIT_MS = 60_000;

/**
 * Whether to ask again in 2 s (spec §4: poll while checks run; finished, stopped or initiated combinations end
 * it). The server says whether a check is running (`polling`). Queued checks are "initiated" until a worker picks
 * them up; the spec's rule would stop there and never show them start, so for PICKUP_WAIT_MS after the step opens
 * or a Run, the client also waits for the pick-up.
 */
export function keepPolling(
  answer:
    | { polling: boolean; checks: readonly Pick<CheckRow, 'check_type' | 'runtime_status'>[] }
    | undefined,
  pickupDeadline: number | null,
  now: number,
): boolean {
  if (!answer) return false;
  if (answer.polling) return true;
  if (pickupDeadline === null || now > pickupDeadline) return false;
  return answer.checks.some(
    (check) =>
      (AUTOMATIC_CHECKS as readonly string[]).includes(check.check_type) &&
      check.runtime_status === 'initiated',
  );
}

export const CHECK_STATUS_LOOK: Record<CheckStatus, { label: string; color: string }> = {
  initiated: { label: 'Initiated', color: 'gray' },
  started: { label: 'Started', color: 'blue' },
  finished: { label: 'Finished', color: 'teal' },
  stopped: { label: 'Stopped', color: 'red' },
  uploaded: { label: 'Uploaded', color: 'teal' },
};

/** Spec §5: only a file named .pdf is sent; the server then checks its content. */
export function isPdfName(name: string): boolean {
  return /\.pdf$/i.test(name.trim());
}
