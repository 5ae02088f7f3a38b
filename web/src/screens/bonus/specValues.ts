import { type IsoListEntry, normalizeGroupIds } from '@paydesk/domain';
import type { FormSchema } from '../../components/forms/zodForm';

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

/**
 * A domain schema with the spec's extra rule (§5): a spec for a named ISO, or an edit of one, needs at least one
 * group ID; only the default spec (no ISO) has none.
 */
export function needingGroups<Body>(
  schema: FormSchema<Body>,
  needed: (body: { iso_name?: string | null; edit?: unknown }) => boolean = (b) =>
    (b.iso_name ?? '') !== '' || (typeof b.edit === 'string' && b.edit !== ''),
): FormSchema<Body> {
  return {
    safeParse(values: unknown) {
      const parsed = schema.safeParse(values);
      const v = values as { iso_name?: string | null; group_id?: string; edit?: unknown };
      if (needed(v) && normalizeGroupIds(v.group_id ?? '').length === 0) {
        const issue = { path: ['group_id'], message: 'Enter at least one group ID' };
        return { success: false, error: { issues: [issue, ...(parsed.success ? [] : parsed.error.issues)] } };
      }
      return parsed;
    },
  };
}
