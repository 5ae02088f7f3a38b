import { z } from 'zod';

// zod probes `new Function` to compile fast parsers; the web app's Content-Security-Policy forbids eval, so
// keep zod on its plain interpreter everywhere (the same behaviour on server and web).
z.config({ jitless: true });
