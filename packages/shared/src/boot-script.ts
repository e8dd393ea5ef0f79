import { STORAGE_KEYS } from './constants.ts';

/**
 * Set on <html> before the first paint when this browser holds no session: the signed-in pages'
 * static first screen (packages/web/src/app/shells) gives way to the loading screen, as the visitor
 * is about to be sent to sign in.
 */
export const NO_STORED_SESSION_CLASS = 'no-stored-session';

/**
 * The one inline script of every page, run in <head> before the first paint: the theme's class as
 * the app will set it (the stored choice, else the system's: no light flash for someone who chose
 * dark, nor the reverse) and whether a session is stored. The web build inserts it; the server
 * allows it in its CSP by this text's hash, so the two cannot drift apart.
 */
/** The stored keys, as JavaScript string literals. */
const THEME_KEY = JSON.stringify(STORAGE_KEYS.theme);
const SESSION_KEY = JSON.stringify(STORAGE_KEYS.accessToken);
const NO_SESSION = JSON.stringify(NO_STORED_SESSION_CLASS);
export const BOOT_SCRIPT =
  `(()=>{const r=document.documentElement;try{const t=localStorage.getItem(${THEME_KEY}),` +
  `c=t==='dark'||t==='light'?t:matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';` +
  `r.classList.add(c);r.style.colorScheme=c;if(localStorage.getItem(${SESSION_KEY}))return}catch{}` +
  `r.classList.add(${NO_SESSION})})()`;
