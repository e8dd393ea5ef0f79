// VitalWatch service worker: shows pushed alerts as notifications, opens the app on click, and
// acknowledges an alert from the notification's Acknowledge button without opening the app. A
// page that cannot be loaded (the server or the connection is down) gets the offline page, which
// says that alerts are paused instead of the browser's own connection error.
// Plain JavaScript, served at /sw.js so its scope is the whole app. The constants mirror
// packages/shared/src/rules/alert-notification.ts and ALERT_ACK_BY_TOKEN_PATH.

const DEFAULT_TITLE = 'Notification';
const DEFAULT_URL = '/';
const ICON = '/pwa-192x192.png';
const BADGE = '/pwa-64x64.png';
const URGENT_TYPES = ['FALL', 'SOS'];
const ACK_PATH = '/api/v1/alert/acknowledge-by-token';
/** Where a push message is reported shown, then opened (its receipt token says which and whose). */
const RECEIPT_PATH = '/api/v1/push/receipt';
const ACK_ACTION = 'acknowledge';
/** Message type posted to open windows for every push (`onForegroundMessage` in src/lib/push.ts). */
const PUSH_MESSAGE_TYPE = 'vitalwatch:push';
/** The offline page and what it needs, kept at install; a new worker version keeps them afresh. */
const OFFLINE_CACHE = 'vitalwatch-offline-v1';
const OFFLINE_PAGE = '/offline.html';
const OFFLINE_FILES = [OFFLINE_PAGE, '/offline.js', '/favicon.svg'];

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
    priority: text(raw.priority, undefined),
    renotify: raw.renotify === true,
    ackToken: text(raw.ackToken, undefined),
    receiptToken: text(raw.receiptToken, undefined),
  };
}

self.addEventListener('install', (event) => {
  // Push must work even if the offline page cannot be kept now (the server failing at this moment).
  const keep = caches
    .open(OFFLINE_CACHE)
    .then((cache) => cache.addAll(OFFLINE_FILES))
    .catch(() => {});
  event.waitUntil(keep.then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  const dropOld = caches
    .keys()
    .then((names) =>
      Promise.all(
        names
          .filter((n) => n.startsWith('vitalwatch-offline-') && n !== OFFLINE_CACHE)
          .map((n) => caches.delete(n)),
      ),
    );
  event.waitUntil(dropOld.then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Everything else goes to the network untouched: this worker caches no app data.
  if (request.mode === 'navigate') event.respondWith(navigate(request));
  else if (OFFLINE_FILES.includes(url.pathname)) event.respondWith(fromNetworkElseCache(request));
});

/** A page from the server; when none comes (no answer at all), the offline page. */
async function navigate(request) {
  try {
    return await fetch(request);
  } catch {
    const page = await caches.match(OFFLINE_PAGE, { cacheName: OFFLINE_CACHE });
    return page ?? Response.error();
  }
}

async function fromNetworkElseCache(request) {
  try {
    return await fetch(request);
  } catch {
    return (await caches.match(request, { cacheName: OFFLINE_CACHE })) ?? Response.error();
  }
}

self.addEventListener('push', (event) => {
  event.waitUntil(showPush(pushMessage(event.data)));
});

async function showPush(message) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  // With the app on screen it has already shown this alert from the socket: replace silently.
  const onScreen = windows.some((client) => client.visibilityState === 'visible');
  for (const client of windows) client.postMessage({ type: PUSH_MESSAGE_TYPE, message });
  const type = message.tag?.split(':').pop() ?? '';
  // High priority (FALL, SOS, a critical value) stays on screen until someone acts on it.
  const urgent = message.priority ? message.priority === 'high' : URGENT_TYPES.includes(type);
  await self.registration.showNotification(message.title, {
    body: message.body,
    icon: ICON,
    badge: BADGE,
    data: {
      url: message.url,
      ...(message.ackToken ? { ackToken: message.ackToken } : {}),
      ...(message.receiptToken ? { receiptToken: message.receiptToken } : {}),
    },
    // An escalation repeat sounds again even with the app open: nobody has acknowledged it yet.
    ...(message.tag ? { tag: message.tag, renotify: message.renotify || !onScreen } : {}),
    silent: onScreen && !message.renotify,
    requireInteraction: urgent,
    ...(message.ackToken ? { actions: [{ action: ACK_ACTION, title: 'Acknowledge' }] } : {}),
  });
  await sendReceipt(message.receiptToken, 'shown');
}

/**
 * Tell the server this message reached the person's screen (shown) or them (opened): without it,
 * a message the push service accepted for a phone in a drawer looks the same as one seen. Best
 * effort, 10 s at most; a failure changes nothing for the person.
 */
async function sendReceipt(token, event) {
  if (typeof token !== 'string') return;
  try {
    await fetch(RECEIPT_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, event }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    // Offline or the server away: the receipt is lost, the notification is not.
  }
}

self.addEventListener('notificationclick', (event) => {
  const { notification } = event;
  notification.close();
  const data = notification.data ?? {};
  if (event.action === ACK_ACTION && typeof data.ackToken === 'string') {
    event.waitUntil(Promise.all([acknowledge(notification, data), sendReceipt(data.receiptToken, 'opened')]));
    return;
  }
  event.waitUntil(
    Promise.all([openOrFocus(sameOriginPath(data.url)), sendReceipt(data.receiptToken, 'opened')]),
  );
});

/** Acknowledge from the notification; if that fails, open the app so the person can act there. */
async function acknowledge(notification, data) {
  try {
    const res = await fetch(ACK_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: data.ackToken }),
    });
    if (!res.ok) throw new Error(`acknowledge answered ${res.status}`);
    const { message } = await res.json();
    await self.registration.showNotification(text(message, 'Alert acknowledged'), {
      body: notification.title,
      icon: ICON,
      badge: BADGE,
      tag: notification.tag,
      silent: true,
      data: { url: sameOriginPath(data.url) },
    });
  } catch {
    await openOrFocus(sameOriginPath(data.url));
  }
}

/** Focus a window already showing the url, else open one. */
async function openOrFocus(path) {
  const target = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === target);
  return open ? open.focus() : self.clients.openWindow(target);
}
