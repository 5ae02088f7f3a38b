import { type FormEvent, useState } from 'react';
import { type FieldErrors, type FormSchema, fieldErrors, shownErrors } from './zodForm';

/**
 * A form checked by the domain's schema for its request: the same rules (and messages) as the server,
 * shown under a field once the user leaves it, and under every field on submit. `ready` says whether the
 * values would pass, for a submit button that waits until they do. `onSubmit` gets the parsed body (trimmed,
 * lower-cased as the schema says) and reports the server's answer itself.
 */
export function useZodForm<Values extends Record<string, unknown>, Body>(
  schema: FormSchema<Body>,
  initial: Values,
  onSubmit: (body: Body) => Promise<void>,
) {
  const [values, setValues] = useState<Values>(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitting, setSubmitting] = useState(false);
  const errors: FieldErrors = fieldErrors(schema, values);
  const shown = shownErrors(errors, touched);

  const touch = (field: string) => setTouched((old) => (old.has(field) ? old : new Set(old).add(field)));
  const set = <K extends keyof Values & string>(field: K, value: Values[K]) =>
    setValues((old) => ({ ...old, [field]: value }));

  return {
    values,
    set,
    /** The message under a field, once earned. */
    error: (field: keyof Values & string) => shown[field],
    /** Spread into an input: checks the field when the user leaves it. */
    blur: (field: keyof Values & string) => ({ onBlur: () => touch(field) }),
    /** Spread into a text or password input: its value, its changes, the check on leaving, its message. */
    text: <
      K extends { [F in keyof Values & string]: Values[F] extends string ? F : never }[keyof Values & string],
    >(
      field: K,
    ) => ({
      value: values[field] as string,
      onChange: (event: { currentTarget: { value: string } }) =>
        set(field, event.currentTarget.value as Values[K]),
      onBlur: () => touch(field),
      error: shown[field],
    }),
    ready: Object.keys(errors).length === 0,
    submitting,
    reset: () => {
      setValues(initial);
      setTouched(new Set());
    },
    handleSubmit: async (event: FormEvent) => {
      event.preventDefault();
      setTouched(new Set(Object.keys(values)));
      const parsed = schema.safeParse(values);
      if (!parsed.success || submitting) return;
      setSubmitting(true);
      try {
        await onSubmit(parsed.data);
      } finally {
        setSubmitting(false);
      }
    },
  };
}
