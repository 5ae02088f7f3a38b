import '../zodConfig';
import { z } from 'zod';

export const email = z
  .string({ error: 'E-mail is required' })
  .trim()
  .min(1, 'E-mail is required')
  .max(254, 'E-mail is too long')
  .pipe(z.email({ error: 'Enter a valid e-mail address' }))
  .transform((value) => value.toLowerCase());

export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required` })
    .min(1, `${label} is required`)
    .max(max, `${label} is too long`);

/** A row id as the database stores it (a PostgreSQL integer): larger numbers are refused, not overflowed. */
export const rowId = z
  .number({ error: 'An id is a whole number' })
  .int('An id is a whole number')
  .min(1, 'An id is a positive whole number')
  .max(2_147_483_647, 'No such id');
