import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { accountRoutes } from './areas/accounts/routes';
import { achRoutes } from './areas/ach/routes';
import { adminRoutes } from './areas/admin/routes';
import { biRoutes } from './areas/bi/routes';
import { bonusRoutes } from './areas/bonus/routes';
import { financialRoutes } from './areas/financial/routes';
import { isoRoutes } from './areas/iso/routes';
import { jobRoutes } from './areas/jobs/routes';
import { leadsRoutes } from './areas/leads/routes';
import { partnerRoutes } from './areas/partners/routes';
import { pciRoutes } from './areas/pci/routes';
import { processingRoutes } from './areas/processing/routes';
import { reportRoutes } from './areas/reports/routes';
import { savedReportRoutes } from './areas/reports/savedReports';
import { salesRoutes } from './areas/sales/routes';
import { uploadRoutes } from './areas/uploads/routes';
import { apiReferenceRoutes } from './platform/apiReference';
import { AppError } from './platform/errors';
import type { Deps } from './platform/http';
import { registerRateLimits } from './platform/rateLimits';
import { configureCookies } from './platform/sessions';
import { registerUploads, UploadCutOff } from './platform/uploads';

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
};

/**
 * The request log names each URL; the lead approval page's URL carries its single-use token
 * (`/leads/app?id=…`), which is a credential, so the log shows it as `id=…`.
 */
export function redactLinkToken(url: string): string {
  return url.replace(/^(\/leads\/app\?(?:[^#]*&)?id=)[^&#]*/, '$1…');
}

function withoutLinkTokens(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger || typeof logger !== 'object') return logger;
  return {
    ...logger,
    serializers: {
      req: (req: {
        method: string;
        url: string;
        hostname?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) => ({
        method: req.method,
        url: redactLinkToken(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
      ...(logger as { serializers?: Record<string, unknown> }).serializers,
    },
  } as FastifyServerOptions['logger'];
}

/** Builds the HTTP application: plugins, the error handler, each area's routes, then the SPA. */
export async function buildApp(deps: Deps, options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    trustProxy: deps.config.TRUST_PROXY === 'true',
    // A client has this long to send a whole request (an upload has its own, checked as it arrives), and a
    // socket on which nothing moves for REQUEST_TIMEOUT_MS is closed.
    requestTimeout: Math.max(
      deps.config.REQUEST_TIMEOUT_MS,
      (deps.config.UPLOAD_BODY_TIMEOUT_SECONDS + 10) * 1000,
    ),
    connectionTimeout: deps.config.REQUEST_TIMEOUT_MS,
    // Registering the plugins and every area's routes took more than Fastify's default 10 s on a busy machine (a
    // test file failed to start with "Plugin did not start in time" while a seed ran beside the tests). A plugin
    // that truly hangs still stops the start-up, after a minute.
    pluginTimeout: 60_000,
    ...options,
    logger: withoutLinkTokens(options.logger),
  });
  configureCookies(deps.config.COOKIE_SECURE);
  await app.register(cookie);

  // An empty JSON body counts as no input (older clients post some calls without a body).
  app.removeContentTypeParser('application/json');
  // Only JSON and spreadsheets are read: a text/plain body (which a cross-site form can send without a CORS
  // preflight) is refused with 415 before any route runs.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 1_048_576 },
    (_req, body, done) => {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new AppError('bad_request', 'The request body is not valid JSON'), undefined);
      }
    },
  );

  registerUploads(app, deps.config.UPLOAD_BODY_TIMEOUT_SECONDS * 1000);
  const limitUnknownPath = await registerRateLimits(app, deps.config);

  app.addHook('onSend', async (_req, reply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
    // API answers hold account and business data: never kept by a browser or a proxy. (Files set their own.)
    if (!reply.hasHeader('cache-control') && /json/.test(String(reply.getHeader('content-type') ?? '')))
      reply.header('cache-control', 'no-store');
  });

  app.setErrorHandler((error, req, reply) => {
    if (error instanceof AppError) {
      // The rest of a cut-off upload is not worth reading: the connection ends with the answer.
      if (error instanceof UploadCutOff) reply.header('connection', 'close');
      return reply.code(error.status).send({ success: false, message: error.message, ...error.extra });
    }
    // PostgreSQL cancelled a statement that ran past STATEMENT_TIMEOUT_MS.
    if ((error as { code?: string }).code === '57014')
      return reply
        .code(503)
        .send({ success: false, message: 'The request took too long. Narrow it down and try again.' });
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 415)
      return reply.code(415).send({ success: false, message: 'Send the request body as JSON' });
    if (status === 413)
      return reply.code(413).send({ success: false, message: 'The request body is too large' });
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send({ success: false, message: 'The request could not be read' });
    }
    req.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .send({ success: false, message: 'Something went wrong on the server. Please try again.' });
  });

  accountRoutes(app, deps);
  adminRoutes(app, deps);
  reportRoutes(app, deps);
  salesRoutes(app, deps);
  isoRoutes(app, deps);
  financialRoutes(app, deps);
  savedReportRoutes(app, deps);
  uploadRoutes(app, deps);
  jobRoutes(app, deps);
  partnerRoutes(app, deps);
  processingRoutes(app, deps);
  achRoutes(app, deps);
  bonusRoutes(app, deps);
  pciRoutes(app, deps);
  leadsRoutes(app, deps);
  biRoutes(app, deps);
  apiReferenceRoutes(app, deps);

  const webDist = deps.config.WEB_DIST;
  const indexHtml = path.join(webDist, 'index.html');
  if (fs.existsSync(webDist)) {
    // wildcard: files are looked up per request, so a rebuilt bundle is served without a restart.
    await app.register(fastifyStatic, { root: webDist, wildcard: true, index: false });
  }
  // Read per request: a rebuilt app is served without a restart, and a build in progress is not a 500.
  const sendApp = async (reply: FastifyReply) => {
    const html = await fs.promises.readFile(indexHtml, 'utf8').catch(() => null);
    if (html === null)
      return reply.code(503).type('text/plain').send('The web app is not built yet: run npm run build');
    return reply.type('text/html').header('cache-control', 'no-cache').send(html);
  };
  // The address `npm start` prints: the app (the static plugin would answer a directory listing's 403).
  app.get('/', (_req, reply) => sendApp(reply));
  // The web app's own pages (any other GET) are served the app; everything else is a 404, counted per address.
  const answersNotFound = (req: FastifyRequest) =>
    req.url.startsWith('/api/') || req.url.startsWith('/assets/') || req.method !== 'GET';
  app.setNotFoundHandler(
    {
      preHandler: async (req: FastifyRequest, reply: FastifyReply) => {
        if (answersNotFound(req)) await limitUnknownPath(req, reply);
      },
    },
    async (req, reply) => {
      if (answersNotFound(req)) return reply.code(404).send({ success: false, message: 'Not found' });
      return sendApp(reply);
    },
  );
  return app;
}
