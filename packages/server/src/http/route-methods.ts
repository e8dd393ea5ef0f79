import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type DomainError, methodNotAllowed, notFound } from '../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods registered for the path of `url` (query ignored), in registration order; none for an unknown path. */
    allowedMethods(url: string): string[];
  }
}

/** The web app's catch-all (`/*`, GET and HEAD) serves any path: it does not make a path known. */
const CATCH_ALL = '/*';

/**
 * A route path as a regular expression: `:name` is one segment (or part of one, as `:from-:to`),
 * a trailing `*` anything. Find-my-way's regular-expression parameters are not used here.
 */
function patternOf(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * Keeps a table of every route's methods (onRoute), so that a request no route matched can be told
 * apart: a known path with another method (405 with `Allow`) or an unknown path (404). Call before
 * any route is registered.
 */
export function trackRouteMethods(app: FastifyInstance): void {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    if (route.url === CATCH_ALL) return;
    const entry = routes.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    routes.set(route.url, entry);
  });
  app.decorate('allowedMethods', (url: string) => {
    const path = url.split('?')[0] ?? url;
    const methods = new Set<string>();
    for (const { pattern, methods: of } of routes.values())
      if (pattern.test(path)) for (const method of of) methods.add(method);
    return [...methods];
  });
}

/**
 * The error for a request no route took: 405 with the methods its path has, else 404. A scope with
 * an error handler of its own (FHIR) throws this from its not-found handler to render it its way.
 */
export function unmatchedRoute(request: FastifyRequest): DomainError {
  const allow = request.server.allowedMethods(request.url);
  return allow.length > 0 ? methodNotAllowed(allow) : notFound();
}
