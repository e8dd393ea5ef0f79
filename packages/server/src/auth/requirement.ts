import type { FastifyInstance, onRequestHookHandler } from 'fastify';

/**
 * What an onRequest hook asks of the caller, so the API document can say it for every route that
 * uses the hook (its `security` and its 401 / 403 answers) without each route repeating it.
 * - `signed-in`: a valid access token (`Authorization: Bearer`), any role: 401 without one.
 * - `role`: a valid access token of one role: 401 without one, 403 for another role.
 * - `device`: a device's `X-Api-Key`: 401 without a known one, 403 for a disabled device, 429
 *   once an address has sent too many wrong ones.
 */
export type AuthRequirement = 'signed-in' | 'role' | 'device';

const requirements = new WeakMap<object, AuthRequirement>();

/** Marks `hook` as asking `requirement`; returns the hook itself. */
export function requires<T extends object>(requirement: AuthRequirement, hook: T): T {
  requirements.set(hook, requirement);
  return hook;
}

/**
 * Runs `hook` first on every route the plugin `app` registers from now on. It does what
 * `app.addHook('onRequest', hook)` does, but on each route's own options, where the API document
 * sees it (a plugin-wide hook is invisible there: the route would be documented as public).
 */
export function guardEveryRoute(app: FastifyInstance, hook: onRequestHookHandler): void {
  app.addHook('onRoute', (route) => {
    route.onRequest = [hook, ...[route.onRequest ?? []].flat()];
  });
}

/** The requirement of a route's onRequest hooks (a function, a list or none), if one asks any. */
export function requirementOf(hooks: unknown): AuthRequirement | undefined {
  const list: unknown[] = Array.isArray(hooks) ? hooks : [hooks];
  for (const hook of list) {
    const found = typeof hook === 'function' ? requirements.get(hook) : undefined;
    if (found) return found;
  }
  return undefined;
}
