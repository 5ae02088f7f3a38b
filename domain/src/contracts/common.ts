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
