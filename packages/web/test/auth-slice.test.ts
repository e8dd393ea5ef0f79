import { describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store.ts';
import {
  loggedIn,
  loggedOut,
  selectCurrentUser,
  selectIsSignedIn,
  selectRole,
  signedUp,
} from '@/lib/store/auth-slice.ts';
import { sampleUser } from './render.tsx';

describe('auth slice', () => {
  it('starts signed out with no user', () => {
    const store = makeStore();
    expect(store.getState().auth).toEqual({ status: false, loggedInUser: null });
    expect(selectRole(store.getState())).toBeNull();
  });

  it('login sets status and stores the user', () => {
    const store = makeStore();
    store.dispatch(loggedIn(sampleUser));
    expect(store.getState().auth).toEqual({ status: true, loggedInUser: sampleUser });
    expect(selectIsSignedIn(store.getState())).toBe(true);
    expect(selectCurrentUser(store.getState())).toEqual(sampleUser);
    expect(selectRole(store.getState())).toBe('user');
  });

  it('sign-up stores the returned user without signing in', () => {
    const store = makeStore();
    store.dispatch(signedUp(sampleUser));
    expect(store.getState().auth).toEqual({ status: false, loggedInUser: sampleUser });
    expect(selectCurrentUser(store.getState())).toBeNull();
    expect(selectRole(store.getState())).toBeNull();
  });

  it('an admin has the admin role', () => {
    const store = makeStore();
    store.dispatch(loggedIn({ ...sampleUser, role: 'admin' }));
    expect(selectRole(store.getState())).toBe('admin');
  });

  it('logout clears everything', () => {
    const store = makeStore();
    store.dispatch(loggedIn(sampleUser));
    store.dispatch(loggedOut());
    expect(store.getState().auth).toEqual({ status: false, loggedInUser: null });
  });
});
