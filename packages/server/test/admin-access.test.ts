import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminPost } from './admin-helpers.ts';
import { createAdmin, dbTargets, signup, useTestApp } from './helpers.ts';

const id = randomUUID();
const ROUTES = [
  'stats',
  'user-growth',
  'system-status',
  'all-users',
  'add-user',
  `edit-user/${id}`,
  `reset-password/${id}`,
  `delete-user/${id}`,
];

describe.each(dbTargets())('admin API access on $name', (target) => {
  const built = useTestApp(target);

  it.each(ROUTES)('%s: a guest gets 401, even with an invalid body', async (path) => {
    const res = await adminPost(built(), path, undefined, { role: 'nope' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
  });

  it.each(ROUTES)('%s: a forged token gets 401', async (path) => {
    const res = await adminPost(built(), path, { authorization: 'Bearer not.a.token' });
    expect(res.statusCode).toBe(401);
  });

  it.each(ROUTES)('%s: a signed-in user gets 403, even with an invalid body', async (path) => {
    const user = await signup(built());
    const res = await adminPost(built(), path, user.auth, { role: 'nope' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });
  });

  it('an admin demoted to user loses access at once, with the token they already hold', async () => {
    const boss = await createAdmin(built());
    const other = await createAdmin(built());
    const demote = await adminPost(built(), `edit-user/${other.user._id}`, boss.auth, {
      fullName: other.user.fullName,
      username: other.user.username,
      email: other.user.email,
      role: 'user',
    });
    expect(demote.statusCode).toBe(200);
    expect((await adminPost(built(), 'stats', other.auth)).statusCode).toBe(403);
  });

  it('the routes are documented with their response schemas', async () => {
    const res = await built().app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const paths = res.json().paths as Record<string, { post?: { responses?: Record<string, unknown> } }>;
    for (const path of ['stats', 'user-growth', 'system-status', 'all-users', 'delete-user/{id}']) {
      expect(Object.keys(paths[`/api/v1/admin/${path}`]?.post?.responses ?? {})).toContain('200');
    }
    expect(Object.keys(paths['/api/v1/admin/add-user']?.post?.responses ?? {})).toContain('201');
  });
});
