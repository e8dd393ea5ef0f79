import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';
import { popplerRead } from './pdf-tools.ts';

const run = promisify(execFile);
const DPI = 150;

/** Page 1 of the PDF as pixels (poppler's pdftoppm, as a printer would rasterise it). */
async function firstPage(pdf: Buffer): Promise<PNG> {
  const dir = await mkdtemp(join(tmpdir(), 'vitalwatch-labels-'));
  try {
    await writeFile(join(dir, 'labels.pdf'), pdf);
    await run('pdftoppm', [
      '-png',
      '-r',
      String(DPI),
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      join(dir, 'labels.pdf'),
      join(dir, 'page'),
    ]);
    return PNG.sync.read(await readFile(join(dir, 'page.png')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every QR code on the page, one per label cell (3 columns × 4 rows inside 36 pt margins). */
function decodeCells(page: PNG, count: number): (string | null)[] {
  const scale = DPI / 72;
  const cellW = ((595.28 - 72) / 3) * scale;
  const cellH = ((841.89 - 72) / 4) * scale;
  return Array.from({ length: count }, (_, i) => {
    const x0 = Math.round(36 * scale + (i % 3) * cellW);
    const y0 = Math.round(36 * scale + Math.floor(i / 3) * cellH);
    const w = Math.round(cellW);
    const h = Math.round(140 * scale);
    const pixels = new Uint8ClampedArray(w * h * 4);
    for (let y = 0; y < h; y++) {
      const from = ((y0 + y) * page.width + x0) * 4;
      pixels.set(page.data.subarray(from, from + w * 4), y * w * 4);
    }
    return jsQR(pixels, w, h)?.data ?? null;
  });
}

describe.each(dbTargets())('device labels on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;

  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  it('prints one QR code per device that decodes to its claim link, with its name and code', async () => {
    const made = [
      await createDevice(built(), admin, { deviceName: 'Label Zoë' }),
      await createDevice(built(), admin, { deviceName: 'Label Two' }),
    ];
    const res = await built().app.inject({
      method: 'GET',
      url: '/api/v1/admin/device-labels',
      headers: { ...admin.auth, host: 'vitalwatch.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const all = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/all-devices',
      headers: admin.auth,
    });
    const devices = all.json<{ data: { devices: { activationCode: string; deviceName: string }[] } }>().data
      .devices;
    const decoded = decodeCells(await firstPage(res.rawPayload), Math.min(devices.length, 12));
    expect(decoded).toEqual(
      devices
        .slice(0, 12)
        .map((d) => `http://vitalwatch.example/claim/${encodeURIComponent(d.activationCode)}`),
    );
    const { text } = await popplerRead(res.rawPayload);
    for (const d of made) {
      expect(text).toContain(d.deviceName);
      expect(text).toContain(`Activation code: ${d.activationCode}`);
    }
  });

  it('is for admins only', async () => {
    const user = await signup(built());
    const res = await built().app.inject({
      method: 'GET',
      url: '/api/v1/admin/device-labels',
      headers: user.auth,
    });
    expect(res.statusCode).toBe(403);
  });
});
