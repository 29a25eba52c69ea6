// Serves the review console's static bundle (console/dist, built by scripts/build-console.mjs) at
// /console on the API port. The page calls the public /v1 API only. Strict headers: a CSP with no
// inline script or style and no framing, nosniff, no referrer, and no caching of the page itself.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';

export const CONSOLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'console', 'dist');

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const FILES: Record<string, { file: string; type: string }> = {
  '/console': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/console/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/console/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/console/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** What the page needs to know of this deployment that no /v1 route says: where the Temporal Web UI is. */
export interface ConsoleSettings {
  temporal_ui: string | null;
  temporal_namespace: string;
}

export function serveConsole(
  dir = CONSOLE_DIR,
  settings: ConsoleSettings = { temporal_ui: null, temporal_namespace: 'default' },
): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/console' && !ctx.path.startsWith('/console/')) return next();
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-cache');
    if (ctx.path === '/console/settings.json' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.type = 'application/json';
      ctx.body = settings;
      return;
    }
    const entry = FILES[ctx.path];
    if (!entry || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      ctx.status = entry ? 405 : 404;
      if (entry) ctx.set('Allow', 'GET, HEAD');
      ctx.type = 'text/plain';
      ctx.body = entry ? 'Method not allowed' : 'Not found';
      return;
    }
    let body: Buffer;
    try {
      body = await fs.promises.readFile(path.join(dir, entry.file));
    } catch {
      ctx.status = 503;
      ctx.set('Retry-After', '30');
      ctx.type = 'text/plain';
      ctx.body = 'The review console is not built: run npm run build:console (npm start and npm test do it).';
      return;
    }
    ctx.status = 200;
    ctx.type = entry.type;
    ctx.body = body;
  };
}
