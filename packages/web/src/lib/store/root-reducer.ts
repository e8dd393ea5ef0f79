import { combineSlices } from '@reduxjs/toolkit';
import { api } from './api.ts';
import { authSlice } from './auth-slice.ts';
import { themeSlice } from './theme-slice.ts';

/**
 * The global store's reducer. Feature slices that only one area needs can join later with
 * `rootReducer.inject(slice)` from the feature itself, so this file does not import features.
 */
export const rootReducer = combineSlices(authSlice, themeSlice, api);
