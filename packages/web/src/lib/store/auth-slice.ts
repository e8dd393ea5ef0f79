import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PublicUser, Role } from '@vitalwatch/shared';

/** Spec section 3: `status` (signed in) and the signed-in user. */
export interface AuthState {
  status: boolean;
  loggedInUser: PublicUser | null;
}

const initialState: AuthState = { status: false, loggedInUser: null };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    loggedIn(state, action: PayloadAction<PublicUser>) {
      state.status = true;
      state.loggedInUser = action.payload;
    },
    /** Sign-up keeps the returned user but does not sign in: the person still logs in on /signin. */
    signedUp(state, action: PayloadAction<PublicUser>) {
      state.loggedInUser = action.payload;
    },
    loggedOut() {
      return initialState;
    },
  },
  selectors: {
    selectIsSignedIn: (state) => state.status,
    selectCurrentUser: (state) => (state.status ? state.loggedInUser : null),
    /** The signed-in person's role (default user), or null when signed out. */
    selectRole: (state): Role | null => (state.status ? (state.loggedInUser?.role ?? 'user') : null),
  },
});

export const { loggedIn, signedUp, loggedOut } = authSlice.actions;
export const { selectIsSignedIn, selectCurrentUser, selectRole } = authSlice.selectors;
