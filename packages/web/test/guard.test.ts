import { describe, expect, it } from 'vitest';
import { decideGuard, type GuardInput } from '@/app/guard/decide.ts';

const input = (overrides: Partial<GuardInput>): GuardInput => ({
  authRequired: true,
  requiredRole: 'user',
  status: false,
  role: null,
  ...overrides,
});

describe('decideGuard', () => {
  describe('rule 1: a signed-in user in the wrong role area goes home', () => {
    it('sends an admin on a user screen to /admin-dashboard', () => {
      expect(decideGuard(input({ status: true, role: 'admin' }))).toEqual({
        action: 'redirect',
        to: '/admin-dashboard',
      });
    });
    it('sends a user on an admin screen to /dashboard', () => {
      expect(decideGuard(input({ requiredRole: 'admin', status: true, role: 'user' }))).toEqual({
        action: 'redirect',
        to: '/dashboard',
      });
    });
    it('comes before rule 3: an admin on a guest-only screen goes to /admin-dashboard', () => {
      expect(decideGuard(input({ authRequired: false, status: true, role: 'admin' }))).toEqual({
        action: 'redirect',
        to: '/admin-dashboard',
      });
    });
    it('ignores a stored role while signed out (after sign-up, before login)', () => {
      expect(decideGuard(input({ authRequired: false, status: false, role: 'user' }))).toEqual({
        action: 'show',
      });
    });
  });

  describe('rule 2: protected screens need a signed-in user', () => {
    it('sends a guest on a user screen to /signin', () => {
      expect(decideGuard(input({}))).toEqual({ action: 'redirect', to: '/signin' });
    });
    it('sends a guest on an admin screen to /signin', () => {
      expect(decideGuard(input({ requiredRole: 'admin' }))).toEqual({ action: 'redirect', to: '/signin' });
    });
  });

  describe('rule 3: guest-only screens send signed-in users home', () => {
    it('sends a user on / (or /signin, /signup) to /dashboard', () => {
      expect(decideGuard(input({ authRequired: false, status: true, role: 'user' }))).toEqual({
        action: 'redirect',
        to: '/dashboard',
      });
    });
    it('sends an admin on a guest-only admin-role screen to /admin-dashboard', () => {
      expect(
        decideGuard(input({ authRequired: false, requiredRole: 'admin', status: true, role: 'admin' })),
      ).toEqual({ action: 'redirect', to: '/admin-dashboard' });
    });
  });

  describe('rule 4: otherwise the screen shows', () => {
    it('shows a guest-only screen to a guest', () => {
      expect(decideGuard(input({ authRequired: false }))).toEqual({ action: 'show' });
    });
    it('shows a user screen to a user', () => {
      expect(decideGuard(input({ status: true, role: 'user' }))).toEqual({ action: 'show' });
    });
    it('shows an admin screen to an admin', () => {
      expect(decideGuard(input({ requiredRole: 'admin', status: true, role: 'admin' }))).toEqual({
        action: 'show',
      });
    });
  });
});
