import { z } from 'zod';

/**
 * One endpoint, declared once: method, path, input schema and output schema. The server's route() validates the
 * input with it and sends the answer through the output schema (only declared fields leave the server); the web's
 * typed call takes the same object, so a field renamed on one side fails to compile on the other; the OpenAPI
 * document and the API reference page are generated from the same list.
 */
export type Method = 'GET' | 'POST';

/** An answer that is a file (an .xlsx download), not JSON. */
export const FILE_ANSWER = 'file' as const;
export type FileAnswer = typeof FILE_ANSWER;

export interface Endpoint<
  M extends Method = Method,
  I extends z.ZodType | null = z.ZodType | null,
  O extends z.ZodType | FileAnswer = z.ZodType | FileAnswer,
> {
  method: M;
  path: string;
  /** One line for the API reference. */
  summary: string;
  /** The POST body or the GET query string; null: the call takes no input. */
  input: I;
  output: O;
}

export function endpoint<
  M extends Method,
  O extends z.ZodType | FileAnswer,
  I extends z.ZodType | null = null,
>(def: { method: M; path: string; summary: string; input?: I; output: O }): Endpoint<M, I, O> {
  return { ...def, input: (def.input ?? null) as I };
}

/** What the caller sends. */
export type InputOf<E> =
  E extends Endpoint<Method, infer I, z.ZodType | FileAnswer>
    ? I extends z.ZodType
      ? z.input<I>
      : Record<string, never> | undefined
    : never;

/** What the caller receives. */
export type AnswerOf<E> =
  E extends Endpoint<Method, z.ZodType | null, infer O> ? (O extends z.ZodType ? z.output<O> : Blob) : never;

/** What a handler returns: the output schema's input side (a Date before it is written as text…). */
export type ResultOf<E> =
  E extends Endpoint<Method, z.ZodType | null, infer O>
    ? O extends z.ZodType
      ? z.input<O>
      : unknown
    : never;

/** A moment: a Date on the server, ISO 8601 text on the wire. */
export const timestamp = z
  .union([z.date(), z.string()])
  .transform((v) => (v instanceof Date ? v.toISOString() : v))
  .pipe(z.string());

/** The plain success-or-message answer of many calls. */
export const messageAnswer = z.object({ success: z.boolean(), message: z.string() });
