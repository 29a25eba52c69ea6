// Which declared route a path belongs to, so that OPTIONS and 405 answers list exactly the methods
// of that route. A literal segment wins over a parameter (POST /v1/memories/search is its own route,
// not GET /v1/memories/:id with id "search"): a request for a shadowed parameter route is a 405.
import type { Middleware } from 'koa';
import { ApiError } from '../errors/catalogue.js';
import type { ApiState, RouteSpec } from './route.js';
import { escapeRegExp } from '../shared/regex.js';

interface Pattern {
  path: string;
  regex: RegExp;
  /** One flag per segment: true for a literal segment. */
  literal: boolean[];
  methods: Set<string>;
}

export class MethodTable {
  private readonly patterns = new Map<string, Pattern>();

  constructor(routes: RouteSpec[]) {
    for (const route of routes) {
      let pattern = this.patterns.get(route.path);
      if (!pattern) {
        const segments = route.path.split('/').slice(1);
        pattern = {
          path: route.path,
          regex: new RegExp(
            `^${segments.map((s) => (s.startsWith(':') ? '/[^/]+' : `/${escapeRegExp(s)}`)).join('')}/?$`,
          ),
          literal: segments.map((s) => !s.startsWith(':')),
          methods: new Set(),
        };
        this.patterns.set(route.path, pattern);
      }
      pattern.methods.add(route.method.toUpperCase());
    }
  }

  /** The most specific declared route path matching this request path, if any. */
  resolve(path: string): Pattern | undefined {
    let best: Pattern | undefined;
    for (const p of this.patterns.values()) {
      if (!p.regex.test(path)) continue;
      if (!best || moreSpecific(p, best)) best = p;
    }
    return best;
  }

  allow(pattern: Pattern): string {
    const methods = [...pattern.methods];
    if (pattern.methods.has('GET')) methods.push('HEAD');
    return [...methods, 'OPTIONS'].join(', ');
  }

  /** Throws the 405 when the request's path belongs to a more specific route than `routePath`. */
  assertOwns(routePath: string, method: string, path: string): void {
    const owner = this.resolve(path);
    if (owner && owner.path !== routePath) throw this.notAllowed(owner, method, path);
  }

  notAllowed(pattern: Pattern, method: string, path: string): ApiError {
    const allow = this.allow(pattern);
    return new ApiError(
      'method_not_allowed',
      `${method} is not allowed on ${path}.`,
      { allowed_methods: allow.split(', ') },
      { Allow: allow },
    );
  }

  /** Mounted after the router: OPTIONS lists the route's methods, any other unrouted method is a 405. */
  middleware(): Middleware<ApiState> {
    return async (ctx, next) => {
      await next();
      if (ctx.body !== undefined || (ctx.status !== 404 && ctx.status !== 405 && ctx.status !== 501)) return;
      const pattern = this.resolve(ctx.path);
      if (!pattern) return;
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        ctx.set('Allow', this.allow(pattern));
        return;
      }
      throw this.notAllowed(pattern, ctx.method, ctx.path);
    };
  }
}

function moreSpecific(a: Pattern, b: Pattern): boolean {
  for (let i = 0; i < Math.min(a.literal.length, b.literal.length); i += 1) {
    if (a.literal[i] !== b.literal[i]) return a.literal[i] === true;
  }
  return false;
}
