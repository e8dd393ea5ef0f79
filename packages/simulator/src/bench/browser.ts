import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { z } from 'zod';
import { log } from './report.ts';

const webIndex = fileURLToPath(new URL('../../../web/dist/index.html', import.meta.url));
const tokens = z.object({ data: z.object({ accessToken: z.string(), refreshToken: z.string() }) });

/** Signs `page` (of a context with the server as its base URL) in as `user`, as the app keeps a session. */
async function signIn(page: Page, user: { username: string; password: string }): Promise<void> {
  const res = await page.request.post('/api/v1/user/login', { data: { user } });
  if (!res.ok()) throw new Error(`sign-in: ${res.status()} ${await res.text()}`);
  const { data } = tokens.parse(await res.json());
  await page.goto('/');
  await page.evaluate(({ accessToken, refreshToken }) => {
    localStorage.setItem('access-token', accessToken);
    localStorage.setItem('refresh-token', refreshToken);
  }, data);
}

/**
 * `run` on a page of Chromium (`/usr/bin/chromium` unless `chromiumPath`), 1280 × 800, signed in to
 * the server as `user`; `freshPage` opens another, signed in the same way in a context of its own
 * (its own HTTP cache). Skipped with a line naming `label` when the web app, which the server
 * serves, is not built (`npm run build`).
 */
export async function inChromium(
  label: string,
  o: { serverUrl: string; user: { username: string; password: string }; chromiumPath?: string },
  run: (page: Page, freshPage: () => Promise<Page>) => Promise<void>,
): Promise<void> {
  if (!existsSync(webIndex)) {
    log(`  ${label} in Chromium: skipped, the web app is not built (npm run build)`);
    return;
  }
  const browser = await chromium.launch({ executablePath: o.chromiumPath ?? '/usr/bin/chromium' });
  const freshPage = async () => {
    const context = await browser.newContext({
      baseURL: o.serverUrl,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    await signIn(page, o.user);
    return page;
  };
  try {
    await run(await freshPage(), freshPage);
  } finally {
    await browser.close();
  }
}
