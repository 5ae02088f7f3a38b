/**
 * What the form needs of a domain zod schema (the web does not depend on zod itself; the domain's
 * schemas are zod objects and fit this shape).
 */
export interface FormSchema<Body> {
  safeParse(
    values: unknown,
  ):
    | { success: true; data: Body }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** Field name → the first message the schema gives for it; a refinement's path names its field. */
export type FieldErrors = Partial<Record<string, string>>;

export function fieldErrors(schema: FormSchema<unknown>, values: unknown): FieldErrors {
  const parsed = schema.safeParse(values);
  if (parsed.success) return {};
  const out: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (out[field] === undefined) out[field] = issue.message;
  }
  return out;
}

/** The messages a user has earned: only for the fields they have left (or all, once they submitted). */
export function shownErrors(errors: FieldErrors, touched: ReadonlySet<string>): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([field]) => touched.has(field)));
}
