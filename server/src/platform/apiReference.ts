import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type CatalogEntry, type Deps, route, routeCatalog } from './http';

/**
 * The API reference, generated from the route catalog (and so from the endpoint definitions in domain/): an
 * OpenAPI 3.1 document at /api/openapi.json and a page a person can read at /api/docs. Both are built from what
 * is registered, so they cannot drift from the code; the page is plain HTML with no script and works offline.
 */
export const apiReferencePaths = { openapi: '/api/openapi.json', page: '/api/docs' } as const;

const ACCESS_TEXT: Record<string, string> = {
  public: 'anyone',
  session: 'any signed-in user',
};
const SCOPE_TEXT: Record<CatalogEntry['scope'], string> = {
  iso: 'business data; partner staff see only their ISO',
  staffOnly: 'internal staff only',
  platform: 'the caller’s own account, or platform administration',
  publicToken: 'a single-purpose token, no session',
};

function schemaOf(schema: z.ZodType | null, io: 'input' | 'output'): Record<string, unknown> | null {
  if (!schema) return null;
  try {
    const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    return rest;
  } catch {
    return {};
  }
}

export function openApiDocument(catalog: readonly CatalogEntry[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const entry of catalog) {
    const input = schemaOf(entry.input, 'input');
    const output = entry.output === 'file' ? null : schemaOf(entry.output, 'output');
    const operation: Record<string, unknown> = {
      summary: entry.summary ?? `${entry.method} ${entry.url}`,
      description: `Who: ${ACCESS_TEXT[entry.access] ?? `users with the ${entry.access} permission`}. Data: ${SCOPE_TEXT[entry.scope]}.`,
      'x-access': entry.access,
      'x-scope': entry.scope,
      responses: {
        200:
          entry.output === 'file'
            ? {
                description: 'An .xlsx file',
                content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {} },
              }
            : { description: 'The answer', content: { 'application/json': { schema: output ?? {} } } },
        400: { description: 'The input was refused; `message` says why' },
        ...(entry.access === 'public'
          ? {}
          : { 401: { description: 'No session' }, 403: { description: 'Not allowed' } }),
      },
    };
    if (input && entry.method === 'POST')
      operation.requestBody = { required: false, content: { 'application/json': { schema: input } } };
    if (input && entry.method === 'GET') {
      const properties = (input.properties ?? {}) as Record<string, unknown>;
      operation.parameters = Object.entries(properties).map(([name, schema]) => ({
        name,
        in: 'query',
        schema,
      }));
    }
    if (entry.file)
      operation.requestBody = {
        content: {
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {},
          ...(input ? { 'application/json': { schema: input } } : {}),
        },
      };
    paths[entry.url] = { ...paths[entry.url], [entry.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'PayDesk API',
      version: '1',
      description:
        'Generated from the endpoint definitions in domain/. Every call answers JSON `{ success: false, message }` on an error. Sessions are a cookie set by sign-in.',
    },
    paths,
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function page(catalog: readonly CatalogEntry[]): string {
  const doc = openApiDocument(catalog);
  const rows = catalog
    .map((entry) => {
      const operation = (doc.paths[entry.url] as Record<string, Record<string, unknown>>)[
        entry.method.toLowerCase()
      ];
      const body = operation?.requestBody ?? operation?.parameters;
      const answer = (operation?.responses as Record<string, unknown>)?.[200];
      const json = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
      return `<section id="${escapeHtml(`${entry.method}-${entry.url}`)}">
  <h2><span class="m ${entry.method}">${entry.method}</span> <code>${escapeHtml(entry.url)}</code></h2>
  <p>${escapeHtml(String(operation?.summary ?? ''))}</p>
  <p class="meta">${escapeHtml(String(operation?.description ?? ''))}</p>
  ${body ? `<details><summary>Input</summary>${json(body)}</details>` : '<p class="meta">Takes no input.</p>'}
  <details><summary>Answer</summary>${json(answer)}</details>
</section>`;
    })
    .join('\n');
  const toc = catalog
    .map(
      (e) =>
        `<li><a href="#${escapeHtml(`${e.method}-${e.url}`)}"><span class="m ${e.method}">${e.method}</span> ${escapeHtml(e.url)}</a></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>PayDesk API reference</title>
<style>
body{font:14px/1.5 system-ui,sans-serif;margin:0;display:grid;grid-template-columns:320px 1fr;color:#1a1b1e}
nav{position:sticky;top:0;height:100vh;overflow:auto;background:#f8f9fa;border-right:1px solid #dee2e6;padding:16px}
nav ul{list-style:none;padding:0;margin:0}nav li{margin:2px 0}nav a{color:#1a1b1e;text-decoration:none;font-size:13px}
main{padding:24px 32px;max-width:1000px}section{border-bottom:1px solid #e9ecef;padding:12px 0}
h1{margin-top:0}h2{font-size:16px;margin:0 0 4px}.meta{color:#6b7280;margin:4px 0}
.m{display:inline-block;min-width:44px;text-align:center;border-radius:4px;color:#fff;font-size:12px;padding:1px 4px}
.GET{background:#2f9e44}.POST{background:#1c7ed6}pre{background:#f1f3f5;padding:8px;overflow:auto;font-size:12px}
summary{cursor:pointer;color:#1c7ed6}
</style></head><body>
<nav><strong>PayDesk API</strong><p class="meta">${catalog.length} calls · <a href="${apiReferencePaths.openapi}">openapi.json</a></p><ul>${toc}</ul></nav>
<main><h1>PayDesk API reference</h1>
<p>Generated from the endpoint definitions in <code>domain/</code> and the routes the server registers, so it always matches the running code. Errors answer <code>{"success": false, "message": "…"}</code> with 400 (input refused), 401 (no session), 403 (not allowed), 404, 409, 423 or 429.</p>
${rows}
</main></body></html>`;
}

export function apiReferenceRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    method: 'GET',
    url: apiReferencePaths.openapi,
    access: 'public',
    scope: 'platform',
    handler: async () => openApiDocument(routeCatalog(app)),
  });
  route(app, deps, {
    method: 'GET',
    url: apiReferencePaths.page,
    access: 'public',
    scope: 'platform',
    handler: async ({ reply }) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(page(routeCatalog(app))),
  });
}
