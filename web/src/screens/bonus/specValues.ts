import { type IsoListEntry, normalizeGroupIds } from '@paydesk/domain';

/** The ISO names to choose from, each once, in order. */
export function isoNames(isos: readonly IsoListEntry[] | undefined): string[] {
  return [...new Set((isos ?? []).map((entry) => entry.iso_name))].sort((a, b) => a.localeCompare(b));
}

/** An ISO's group IDs as the form shows them: every entry of that ISO, each ID once, comma-separated. */
export function groupIdsOf(isos: readonly IsoListEntry[] | undefined, isoName: string): string {
  const ids = (isos ?? [])
    .filter((entry) => entry.iso_name === isoName)
    .flatMap((entry) => normalizeGroupIds(entry.group_id));
  return [...new Set(ids)].join(', ');
}

/** A stored amount ("250.00") as the form shows it ("250"); whole cents are kept. */
export function amountText(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const text = String(value);
  return text.endsWith('.00') ? text.slice(0, -3) : text;
}
