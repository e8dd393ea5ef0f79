import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { initialTheme, type PageTheme } from '../theme-storage.ts';

export interface ThemeState {
  pageTheme: PageTheme;
}

export const themeSlice = createSlice({
  name: 'theme',
  initialState: (): ThemeState => ({ pageTheme: initialTheme() }),
  reducers: {
    themeToggled(state) {
      state.pageTheme = state.pageTheme === 'dark' ? 'light' : 'dark';
    },
    themeSet(state, action: PayloadAction<PageTheme>) {
      state.pageTheme = action.payload;
    },
  },
  selectors: {
    selectPageTheme: (state) => state.pageTheme,
  },
});

export const { themeToggled, themeSet } = themeSlice.actions;
export const { selectPageTheme } = themeSlice.selectors;
