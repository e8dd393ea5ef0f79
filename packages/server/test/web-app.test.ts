import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { BOOT_SCRIPT } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { dbTargets, useTestApp } from './helpers.ts';

/** A build as Vite and its precompress plugin leave it: hashed assets with .br / .gz beside them, a hidden map. */
function fakeBuild(): { root: string; script: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'vw-web-'));
  mkdirSync(path.join(root, 'assets'));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><script src="/assets/index-abc123.js"></script>',
  );
  writeFileSync(path.join(root, 'assets/index-abc123.js'), script);
  writeFileSync(path.join(root, 'assets/index-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(root, 'assets/index-abc123.js.gz'), gzipSync(script));
  writeFileSync(path.join(root, 'assets/index-abc123.js.map'), '{"version":3,"sources":["secret.ts"]}');
  writeFileSync(path.join(root, 'robots.txt'), 'User-agent: *\nDisallow: /dashboard\n');
  writeFileSync(
    path.join(root, 'user-area.html'),
    '<!doctype html><link rel="modulepreload" href="/assets/user.js">',
  );
  writeFileSync(path.join(root, 'dashboard.html'), '<!doctype html><div id="app-shell"></div>');
  writeFileSync(
    path.join(root, 'area-pages.json'),
    JSON.stringify({ exact: { '/dashboard': 'dashboard.html' }, prefix: { '/dashboard': 'user-area.html' } }),
  );
  return { root, script };
}

const [pglite] = dbTargets();

describe('the web app as served', () => {
  const build = fakeBuild();
  const built = useTestApp(pglite!, { webDist: build.root });
  const get = (url: string, encoding = 'br, gzip') =>
    built().app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });

  it('sends a hashed asset precompressed, cached for a year as immutable', async () => {
    const res = await get('/assets/index-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(build.script);
    const gzip = await get('/assets/index-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });

  it('has every page revalidated, so a new build is picked up at once', async () => {
    for (const url of ['/', '/dashboard', '/robots.txt']) {
      const res = await get(url, 'identity');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await get('/robots.txt', 'identity')).body).toContain('Disallow: /dashboard');
  });

  it("sends an area's paths the page that preloads its code, and every other path index.html", async () => {
    for (const url of ['/dashboard/alerts?device=1', '/dashboard/board', '/dashboard/devices/']) {
      const res = await get(url, 'identity');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toContain('rel="modulepreload" href="/assets/user.js"');
    }
    for (const url of ['/dashboards', '/signin', '/admin-dashboard/dashboard']) {
      expect((await get(url, 'identity')).body, url).toContain('/assets/index-abc123.js');
    }
  });

  it('sends a path with a static first screen its own page, the exact path only, with or without a query', async () => {
    for (const url of ['/dashboard', '/dashboard?device=7']) {
      expect((await get(url, 'identity')).body, url).toContain('id="app-shell"');
    }
    expect((await get('/dashboard/board', 'identity')).body).not.toContain('app-shell');
  });

  it("allows the pages' one inline script by its hash, and no other", async () => {
    const csp = (await get('/', 'identity')).headers['content-security-policy'];
    const hash = createHash('sha256').update(BOOT_SCRIPT).digest('base64');
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('does not serve source maps, and a missing asset is a 404 rather than the page', async () => {
    for (const url of ['/assets/index-abc123.js.map', '/assets/index-old999.js']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('secret.ts');
    }
  });

  it('compresses API answers of 1 kB or more', async () => {
    const res = await get('/api/v1/openapi.json', 'gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });
});
