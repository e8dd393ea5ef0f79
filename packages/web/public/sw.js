// VitalWatch service worker: shows pushed alerts as notifications and opens the app on click.
// Plain JavaScript, served at /sw.js so its scope is the whole app. The constants mirror
// packages/shared/src/rules/alert-notification.ts.

const DEFAULT_TITLE = 'Notification';
const DEFAULT_URL = '/';
const ICON = '/pwa-192x192.png';
const BADGE = '/pwa-64x64.png';
const URGENT_TYPES = ['FALL', 'SOS'];
/** Message type posted to open windows for every push (`onForegroundMessage` in src/lib/push.ts). */
const PUSH_MESSAGE_TYPE = 'vitalwatch:push';

const text = (value, fallback) => (typeof value === 'string' && value.length > 0 ? value : fallback);

/** A path on this origin; anything else (another site, garbage) becomes the default. */
function sameOriginPath(value) {
  if (typeof value !== 'string' || value.length === 0) return DEFAULT_URL;
  try {
    const url = new URL(value, self.location.origin);
    return url.origin === self.location.origin ? url.pathname + url.search + url.hash : DEFAULT_URL;
  } catch {
    return DEFAULT_URL;
  }
}

/** The push data `{title, body, tag, url}` with the spec's defaults; a non-JSON payload is the body. */
function pushMessage(data) {
  let raw = {};
  if (data) {
    try {
      const parsed = data.json();
      raw = parsed && typeof parsed === 'object' ? parsed : {};
    } catch {
      raw = { body: data.text() };
    }
  }
  const tag = text(raw.tag, undefined);
  return {
    title: text(raw.title, DEFAULT_TITLE),
    body: text(raw.body, ''),
    tag,
    url: sameOriginPath(raw.url),
  };
}

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  event.waitUntil(showPush(pushMessage(event.data)));
});

async function showPush(message) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  // With the app on screen it has already shown this alert from the socket: replace silently.
  const onScreen = windows.some((client) => client.visibilityState === 'visible');
  for (const client of windows) client.postMessage({ type: PUSH_MESSAGE_TYPE, message });
  const type = message.tag?.split(':').pop() ?? '';
  await self.registration.showNotification(message.title, {
    body: message.body,
    icon: ICON,
    badge: BADGE,
    data: { url: message.url },
    ...(message.tag ? { tag: message.tag, renotify: !onScreen } : {}),
    silent: onScreen,
    // Someone may need help: keep FALL and SOS on screen until dismissed.
    requireInteraction: URGENT_TYPES.includes(type),
  });
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openOrFocus(sameOriginPath(event.notification.data?.url)));
});

/** Focus a window already showing the url, else open one. */
async function openOrFocus(path) {
  const target = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === target);
  return open ? open.focus() : self.clients.openWindow(target);
}
