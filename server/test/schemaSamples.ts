import { z } from 'zod';

/** Inputs built from a route's own schema: a valid sample, and the paths to its leaves for hostile swaps. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  prefixItems?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: Json[];
  const?: Json;
  default?: Json;
  /** A valid value the schema names itself (zod `.meta({ examples })`): used first. */
  examples?: Json[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  maxItems?: number;
}

const STRING_CANDIDATES = ['2026-01-01', '2026-01', 'admin@paydesk.local', 'report.xlsx', 'Summit', 'x'];
export const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '0000-01-01',
  '9999-12-31',
  '9999-12-01',
  '0000-01',
  '-1',
  '',
];
export const HOSTILE_NUMBERS = [2_147_483_648, -2_147_483_649, 1e15, 1e308, -1, 1.5, -0.5];

export function sample(schema: Schema, key = ''): Json {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0] ?? null;
  if (schema.default !== undefined) return schema.default;
  if (schema.examples?.[0] !== undefined) return schema.examples[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const first = options.find((o) => o.type !== 'null') ?? options[0];
    return first ? sample(first, key) : null;
  }
  if (schema.allOf?.[0]) return sample(schema.allOf[0], key);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const [name, value] of Object.entries(schema.properties ?? {})) out[name] = sample(value, name);
      return out;
    }
    case 'array': {
      if (schema.prefixItems) return schema.prefixItems.map((item) => sample(item, key));
      const n = Math.max(schema.minItems ?? 0, schema.maxItems === 0 ? 0 : 1);
      return Array.from({ length: n }, () => (schema.items ? sample(schema.items) : null));
    }
    case 'string': {
      if (schema.format === 'email' || /email/i.test(key)) return 'admin@paydesk.local';
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      const pattern = schema.pattern ? new RegExp(schema.pattern) : null;
      const fit = STRING_CANDIDATES.find((c) =>
        pattern ? pattern.test(c) : c.length >= (schema.minLength ?? 0),
      );
      return fit ?? 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    }
    case 'integer':
    case 'number': {
      const lo = schema.minimum ?? Number.NEGATIVE_INFINITY;
      const hi = schema.maximum ?? Number.POSITIVE_INFINITY;
      return Math.min(Math.max(1, lo), hi);
    }
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** Every path to a string or number in a value, with its kind. */
export function leaves(
  value: Json,
  path: (string | number)[] = [],
): { path: (string | number)[]; kind: 'string' | 'number' }[] {
  if (typeof value === 'string') return [{ path, kind: 'string' }];
  if (typeof value === 'number') return [{ path, kind: 'number' }];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [];
}

export function replaced(value: Json, path: (string | number)[], by: Json): Json {
  if (path.length === 0) return by;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaced(v, rest, by) : v));
  const obj = value as Record<string, Json>;
  return { ...obj, [head as string]: replaced(obj[head as string] ?? null, rest, by) };
}

export function jsonSchema(schema: z.ZodType | null): Schema {
  if (!schema) return { type: 'object', properties: {} };
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Schema;
}
