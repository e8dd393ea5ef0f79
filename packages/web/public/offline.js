// The offline page (offline.html): the theme the app last used, which side is down, and a reload
// as soon as the server answers again. Plain JavaScript: it runs without the app's code.
(() => {
  const root = document.documentElement;
  try {
    const theme = localStorage.getItem('theme');
    if (theme === 'dark' || theme === 'light') root.classList.add(theme);
  } catch {
    // No storage: the system's choice applies.
  }

  // When the app saw live data stop in this tab (STORAGE_KEYS.notLiveSince), else now.
  let since = Date.now();
  try {
    const stored = Number(sessionStorage.getItem('not-live-since'));
    if (Number.isFinite(stored) && stored > 0 && stored <= since) since = stored;
    else sessionStorage.setItem('not-live-since', String(since));
  } catch {
    // No storage: counted from now.
  }
  const sinceText = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit' }).format(since);
  const status = document.getElementById('status');
  const cause = document.getElementById('cause');
  const showCause = () => {
    status.textContent = `Not live: alerts paused since ${sinceText} — reconnecting`;
    cause.textContent = navigator.onLine
      ? 'This device is online, but the VitalWatch server is not answering. It may be restarting or down.'
      : 'This device is offline: check its Wi-Fi or mobile data.';
  };
  showCause();
  window.addEventListener('online', showCause);
  window.addEventListener('offline', showCause);

  const RETRY_MS = 5000;
  const tryAgain = async () => {
    try {
      const answer = await fetch('/readyz', { cache: 'no-store' });
      if (answer.ok) location.reload();
    } catch {
      // Still down: the next attempt comes by itself.
    }
  };
  setInterval(tryAgain, RETRY_MS);
  document.getElementById('retry').addEventListener('click', () => location.reload());
})();
