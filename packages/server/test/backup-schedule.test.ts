import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyBackup } from '../src/backup/format.ts';
import { loadConfig } from '../src/config.ts';
import { adminPost } from './admin-helpers.ts';
import { createAdmin, dbTargets, useTestApp } from './helpers.ts';

const TOKEN = 'metrics-token-for-backups';
const dir = mkdtempSync(path.join(tmpdir(), 'vw-scheduled-'));
const pglite = dbTargets().find((t) => t.name === 'pglite')!;

describe('scheduled backups (BACKUP_DIR)', () => {
  const built = useTestApp(pglite, {
    metricsToken: TOKEN,
    scheduledBackups: { dir, everyHours: 24, keep: 2, passphrase: 'scheduled passphrase' },
  });
  const metrics = async () =>
    (
      await built().app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).body;
  const backupsComponent = async () => {
    const admin = await createAdmin(built());
    const res = await adminPost(built(), 'system-status', admin.auth);
    return res.json().data.components.find((c: { name: string }) => c.name === 'Backups');
  };

  it('are off by default, and read from BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-cfg-'));
    expect(loadConfig({ DATA_DIR: dataDir }).scheduledBackups).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_EVERY_HOURS: '6', BACKUP_KEEP: '3' })
        .scheduledBackups,
    ).toEqual({ dir, everyHours: 6, keep: 3, passphrase: undefined });
  });

  it('write whole encrypted files, keep the newest BACKUP_KEEP, and count in /metrics and System Status', async () => {
    const scheduled = built().ctx.backups.scheduled!;
    expect((await backupsComponent()).status).toBe('operational');
    for (const at of ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z']) {
      await scheduled.runOnce(new Date(at));
    }
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['vitalwatch-20260102T000000Z.vwb', 'vitalwatch-20260103T000000Z.vwb']);
    const header = await verifyBackup(() => path.join(dir, files[1]!), 'scheduled passphrase');
    expect(header.tables.length).toBeGreaterThan(10);
    expect(await metrics()).toContain('vitalwatch_backups_total{outcome="success"} 3');
    expect((await backupsComponent()).detail).toMatch(/^Last backup /);
  });

  it('a failed one is logged, counted and shown as degraded, and leaves no file behind', async () => {
    const scheduled = built().ctx.backups.scheduled!;
    // A file where the directory should be: the write fails.
    const blocked = path.join(mkdtempSync(path.join(tmpdir(), 'vw-blocked-')), 'not-a-dir');
    writeFileSync(blocked, '');
    Object.assign(scheduled.options, { dir: blocked });
    await scheduled.runOnce(new Date('2026-01-04T00:00:00Z'));
    expect(scheduled.status.failures).toBe(1);
    expect(await metrics()).toContain('vitalwatch_backups_total{outcome="failure"} 1');
    const component = await backupsComponent();
    expect(component).toMatchObject({
      status: 'degraded',
      detail: expect.stringMatching(/^The last backup failed/),
    });
    expect(readdirSync(dir)).toHaveLength(2);
  });
});
