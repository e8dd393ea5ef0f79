import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from './context.ts';
import { users } from './db/schema.ts';

export type AdminBootstrap =
  | { kind: 'configured'; username: string; created: boolean }
  | { kind: 'generated'; username: string; password: string }
  | { kind: 'existing' };

/**
 * ADMIN_* set: make sure that admin exists (its password is only set when it is created).
 * Nothing set and no admin in the database: create `admin` with a random password, returned once to print.
 */
export async function bootstrapAdmin(ctx: AppContext): Promise<AdminBootstrap> {
  const { username, email, password } = ctx.config.admin;
  if (username && password) {
    const existing = await ctx.users.byLogin(username);
    if (existing) {
      if (existing.role !== 'admin') await ctx.users.setRole(existing.id, 'admin');
      return { kind: 'configured', username: existing.username, created: false };
    }
    await ctx.users.createUser({
      fullName: 'Administrator',
      username,
      email: email ?? `${username}@vitalwatch.local`,
      password,
      role: 'admin',
    });
    return { kind: 'configured', username, created: true };
  }
  const [{ count } = { count: 0 }] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.role, 'admin'));
  if (count > 0) return { kind: 'existing' };
  const generated = `${randomBytes(12).toString('base64url')}Aa1`;
  await ctx.users.createUser({
    fullName: 'Administrator',
    username: 'admin',
    email: email ?? 'admin@vitalwatch.local',
    password: generated,
    role: 'admin',
  });
  return { kind: 'generated', username: 'admin', password: generated };
}
