import type { Endpoint } from './endpoint';

/**
 * An endpoint named by its method and path only, carrying the full definition as a type. Screens that must
 * stay light (the sign-in page loads no zod) call through a reference; the compiler still checks their input
 * and answer against the endpoint's schemas. This module imports nothing at run time.
 */
export interface EndpointRef<E extends Endpoint> {
  readonly method: E['method'];
  readonly path: string;
  /** Never set: it only carries the endpoint's type. */
  readonly endpoint?: E;
}

export const endpointRef = <E extends Endpoint>(method: E['method'], path: string): EndpointRef<E> => ({
  method,
  path,
});
