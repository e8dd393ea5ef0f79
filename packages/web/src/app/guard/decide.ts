import type { Role } from '@vitalwatch/shared';
import { homeForRole, PATHS } from '@/lib/paths.ts';

export interface GuardInput {
  /** Whether the screen needs a signed-in user (default yes). */
  authRequired: boolean;
  /** The role the screen is for (default user). */
  requiredRole: Role;
  /** Signed in? */
  status: boolean;
  /** The signed-in user's role, or null when signed out. */
  role: Role | null;
}

export type GuardDecision = { action: 'show' } | { action: 'redirect'; to: string };

const show: GuardDecision = { action: 'show' };
const redirect = (to: string): GuardDecision => ({ action: 'redirect', to });

/** The route guard of spec section 2: its four rules, in order. */
export function decideGuard({ authRequired, requiredRole, status, role }: GuardInput): GuardDecision {
  // 1. A signed-in user in the other role's area goes to their own home.
  if (status && role !== null && role !== requiredRole) return redirect(homeForRole(role));
  // 2. A protected screen needs a signed-in user.
  if (authRequired && !status) return redirect(PATHS.signin);
  // 3. Guest-only screens send signed-in users to their home.
  if (!authRequired && status && role === requiredRole) return redirect(homeForRole(role));
  // 4. Otherwise the screen is shown.
  return show;
}
