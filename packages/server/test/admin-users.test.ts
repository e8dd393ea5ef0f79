import { randomUUID } from 'node:crypto';
import type { AdminUser } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { adminPost, insertDevice, insertPushSubscription } from './admin-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';

const newUser = (overrides: Record<string, unknown> = {}) => {
  const username = unique('member');
  return {
    fullName: 'New Member',
    username,
    email: `${username}@example.com`,
    role: 'user',
    password: 'password',
    ...overrides,
  };
};
const editOf = (u: TestUser['user'], overrides: Record<string, unknown> = {}) => ({
  fullName: u.fullName,
  username: u.username,
  email: u.email,
  role: u.role,
  ...overrides,
});
const issuesOf = (body: { issues: { path: string; message: string }[] }) =>
  body.issues.map((i) => `${i.path}: ${i.message}`);

describe.each(dbTargets())('admin user management on $name', (target) => {
  const built = useTestApp(target);

  describe('all-users', () => {
    it('lists every user with push subscription ids and device counts, never a secret', async () => {
      const admin = await createAdmin(built());
      const user = await signup(built());
      const { db } = built().ctx;
      const subscription = await insertPushSubscription(db, user.user._id);
      await insertDevice(db, [user.user._id]);
      await insertDevice(db, [user.user._id, admin.user._id]);

      const res = await adminPost(built(), 'all-users', admin.auth, {});
      expect(res.statusCode).toBe(200);
      const users: AdminUser[] = res.json().data.users;
      expect(users.find((u) => u._id === user.user._id)).toMatchObject({
        username: user.user.username,
        role: 'user',
        fcmTokens: [subscription],
        devicesCount: 2,
      });
      expect(users.find((u) => u._id === admin.user._id)).toMatchObject({ role: 'admin', devicesCount: 1 });
      expect(res.body).not.toMatch(/passwordHash|password_hash|scrypt|refreshToken|p256dh|endpoint/i);
    });

    it('works without a body, and with isUser true lists only role user', async () => {
      const admin = await createAdmin(built());
      const user = await signup(built());
      const all: AdminUser[] = (await adminPost(built(), 'all-users', admin.auth)).json().data.users;
      expect(all.map((u) => u._id)).toEqual(expect.arrayContaining([admin.user._id, user.user._id]));

      const res = await adminPost(built(), 'all-users', admin.auth, { isUser: true });
      const users: AdminUser[] = res.json().data.users;
      expect(users.map((u) => u._id)).toContain(user.user._id);
      expect(users.every((u) => u.role === 'user')).toBe(true);
    });

    it('answers 400 for a non-boolean isUser', async () => {
      const admin = await createAdmin(built());
      const res = await adminPost(built(), 'all-users', admin.auth, { isUser: 'yes' });
      expect(res.statusCode).toBe(400);
      expect(res.json().issues[0].path).toBe('isUser');
    });
  });

  describe('add-user', () => {
    it('creates the user (201) who can then sign in; 8 characters without strength rules are enough', async () => {
      const admin = await createAdmin(built());
      const payload = newUser({ role: 'admin', email: `${unique('Mixed')}@Example.com` });
      const res = await adminPost(built(), 'add-user', admin.auth, payload);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'User added successfully',
        data: {
          user: {
            username: payload.username,
            email: String(payload.email).toLowerCase(),
            role: 'admin',
            fcmTokens: [],
            devicesCount: 0,
          },
        },
      });
      expect(res.body).not.toMatch(/password/i);
      const login = await built().app.inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { user: { username: payload.username, password: payload.password } },
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().data.user.role).toBe('admin');
    });

    it('defaults the role to user', async () => {
      const admin = await createAdmin(built());
      const { role: _omitted, ...payload } = newUser();
      const res = await adminPost(built(), 'add-user', admin.auth, payload);
      expect(res.statusCode).toBe(201);
      expect(res.json().data.user.role).toBe('user');
    });

    it('answers 400 with field issues: required fields, email, role, password length', async () => {
      const admin = await createAdmin(built());
      const res = await adminPost(built(), 'add-user', admin.auth, {
        fullName: '',
        username: '',
        email: 'nope',
        role: 'superuser',
        password: 'short',
      });
      expect(res.statusCode).toBe(400);
      expect(issuesOf(res.json())).toEqual(
        expect.arrayContaining([
          'fullName: Full Name is required',
          'username: Username is required',
          'email: Enter a valid email address',
          'password: Password must be at least 8 characters',
        ]),
      );
      expect(issuesOf(res.json()).some((i) => i.startsWith('role: '))).toBe(true);
    });

    it('answers 409 for a username or email already taken, whatever the case', async () => {
      const admin = await createAdmin(built());
      const taken = await signup(built());
      const byName = await adminPost(
        built(),
        'add-user',
        admin.auth,
        newUser({ username: taken.user.username.toUpperCase() }),
      );
      expect(byName.statusCode).toBe(409);
      expect(byName.json().message).toBe('Username is already taken');
      const byEmail = await adminPost(
        built(),
        'add-user',
        admin.auth,
        newUser({ email: taken.user.email.toUpperCase() }),
      );
      expect(byEmail.statusCode).toBe(409);
      expect(byEmail.json().message).toBe('Email is already registered');
    });
  });

  describe('edit-user/:id', () => {
    it('updates name, username, email and role and returns the user', async () => {
      const admin = await createAdmin(built());
      const user = await signup(built());
      const username = unique('renamed');
      const res = await adminPost(
        built(),
        `edit-user/${user.user._id}`,
        admin.auth,
        editOf(user.user, { fullName: 'Renamed', username, email: `${username}@EXAMPLE.com`, role: 'admin' }),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        message: 'User updated successfully',
        data: { user: { _id: user.user._id, fullName: 'Renamed', username, role: 'admin' } },
      });
      expect(res.json().data.user.email).toBe(`${username}@example.com`);
      expect((await adminPost(built(), 'stats', user.auth)).statusCode).toBe(200);
    });

    it('refuses to make a user with assigned devices an admin (409), until they are unassigned', async () => {
      const admin = await createAdmin(built());
      const user = await signup(built());
      await insertDevice(built().ctx.db, [user.user._id]);
      const res = await adminPost(
        built(),
        `edit-user/${user.user._id}`,
        admin.auth,
        editOf(user.user, { role: 'admin' }),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'HAS_DEVICES',
        message: expect.stringMatching(/^Remove this user from their devices/),
      });
      const rename = await adminPost(
        built(),
        `edit-user/${user.user._id}`,
        admin.auth,
        editOf(user.user, { fullName: 'Still A User' }),
      );
      expect(rename.statusCode).toBe(200);
      expect(rename.json().data.user.role).toBe('user');
    });

    it('keeps the own username and email without a conflict', async () => {
      const admin = await createAdmin(built());
      const user = await signup(built());
      const res = await adminPost(built(), `edit-user/${user.user._id}`, admin.auth, editOf(user.user));
      expect(res.statusCode).toBe(200);
    });

    it("answers 409 for another user's username or email", async () => {
      const admin = await createAdmin(built());
      const user = await signup(built());
      const other = await signup(built());
      const byName = await adminPost(
        built(),
        `edit-user/${user.user._id}`,
        admin.auth,
        editOf(user.user, { username: other.user.username }),
      );
      expect(byName.statusCode).toBe(409);
      expect(byName.json().issues).toEqual([{ path: 'username', message: 'Username is already taken' }]);
      const byEmail = await adminPost(
        built(),
        `edit-user/${user.user._id}`,
        admin.auth,
        editOf(user.user, { email: other.user.email }),
      );
      expect(byEmail.statusCode).toBe(409);
      expect(byEmail.json().message).toBe('Email is already registered');
    });

    it('answers 400 with field issues', async () => {
      const admin = await createAdmin(built());
      const user = await signup(built());
      const res = await adminPost(
        built(),
        `edit-user/${user.user._id}`,
        admin.auth,
        editOf(user.user, { email: 'bad', role: 'root' }),
      );
      expect(res.statusCode).toBe(400);
      const paths = res.json().issues.map((i: { path: string }) => i.path);
      expect(paths).toEqual(expect.arrayContaining(['email', 'role']));
    });

    it('answers 404 for an unknown or malformed id', async () => {
      const admin = await createAdmin(built());
      const body = editOf(admin.user);
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const res = await adminPost(built(), `edit-user/${id}`, admin.auth, body);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'User not found' });
      }
    });
  });
});
