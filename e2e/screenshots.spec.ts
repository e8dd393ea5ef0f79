import { createUser, expect, signInWithTokens, test } from './fixtures.ts';

const DIR = '.tmp/screenshots';
const PAGES = [
  ['landing', '/', 'Vital signs watched'],
  ['signup', '/signup', 'Create Account'],
  ['signin', '/signin', 'Login'],
  ['demo', '/demo', 'Request a Demo'],
  ['not-found', '/nowhere', 'Page Not Found'],
  ['guide', '/guide', 'User Guide'],
  ['faq', '/faq', 'Frequently Asked Questions'],
  ['support', '/support', 'Support'],
  ['about', '/about', 'About VitalWatch'],
] as const;

for (const theme of ['light', 'dark'] as const) {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['mobile', { width: 375, height: 812 }],
  ] as const) {
    test(`screenshots: ${theme}, ${label}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: theme });
      for (const [name, path, heading] of PAGES) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first()).toContainText(heading);
        await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
        await page.screenshot({ path: `${DIR}/${name}-${theme}-${label}.png`, fullPage: true });
      }
      const user = await createUser(page);
      await signInWithTokens(page, user.username, user.password);
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { name: 'Health Dashboard' })).toBeVisible();
      await page.screenshot({ path: `${DIR}/dashboard-${theme}-${label}.png`, fullPage: true });
    });
  }
}
