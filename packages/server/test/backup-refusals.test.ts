import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupFileError } from '../src/backup/crypto.ts';
import { RestoreRefused, restoreBackup } from '../src/backup/restore.ts';
import { writeBackup } from '../src/backup/snapshot.ts';
import { backupTo, emptyDatabase, scratchFile, tableCounts } from './backup-helpers.ts';
import { postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, useTestApp } from './helpers.ts';

const PASSPHRASE = 'correct horse battery staple';

describe.each(dbTargets())(
  'a backup file that cannot be restored on $name',
  { timeout: 120_000 },
  (target) => {
    const built = useTestApp(target);
    let plain = '';
    let encrypted = '';
    // One empty target for every refusal: each must leave it empty.
    let empty: Awaited<ReturnType<typeof emptyDatabase>> | undefined;
    afterAll(() => empty?.drop());
    beforeAll(async () => {
      empty = await emptyDatabase(target);
      const admin = await createAdmin(built());
      const { device } = await userWithDevice(built(), admin);
      // Enough rows for several encrypted chunks and gzip blocks.
      for (let i = 0; i < 6; i += 1) {
        const batch = Array.from({ length: 500 }, (_, j) => ({
          messageId: `r-${i}-${j}`,
          heartRate: 60 + j / 10,
        }));
        expect((await postHealth(built(), device.apiAuthCode, batch)).statusCode).toBe(202);
      }
      plain = scratchFile();
      encrypted = scratchFile();
      await backupTo(built(), plain);
      await backupTo(built(), encrypted, PASSPHRASE);
    });

    /** Restore `bytes` into a fresh empty database and expect `message`, with nothing written there. */
    async function refused(
      bytes: Buffer,
      passphrase: string | undefined,
      message: RegExp,
      kind = BackupFileError,
    ) {
      const file = scratchFile();
      writeFileSync(file, bytes);
      const attempt = restoreBackup(empty!.database, { source: () => file, passphrase });
      await expect(attempt).rejects.toThrow(message);
      await expect(attempt).rejects.toBeInstanceOf(kind);
      expect(await tableCounts(empty!.database)).toEqual({});
    }

    it('the untouched encrypted file restores (the cases below fail for what was done to them)', async () => {
      const target2 = await emptyDatabase(target);
      try {
        const result = await restoreBackup(target2.database, {
          source: () => encrypted,
          passphrase: PASSPHRASE,
        });
        expect(result.counts.find((c) => c.table === 'health_records')?.actual).toBe(3000);
      } finally {
        await target2.drop();
      }
    });

    it('a truncated file is refused before anything is written', async () => {
      for (const [file, passphrase] of [
        [plain, undefined],
        [encrypted, PASSPHRASE],
      ] as const) {
        const bytes = readFileSync(file);
        await refused(bytes.subarray(0, Math.floor(bytes.length * 0.7)), passphrase, /truncated/);
        await refused(bytes.subarray(0, bytes.length - 3), passphrase, /truncated|corrupted/);
      }
    });

    it('a corrupted byte is refused before anything is written', async () => {
      for (const [file, passphrase] of [
        [plain, undefined],
        [encrypted, PASSPHRASE],
      ] as const) {
        const bytes = Buffer.from(readFileSync(file));
        const at = Math.floor(bytes.length / 2);
        bytes[at] = bytes[at]! ^ 0x40;
        await refused(bytes, passphrase, /corrupted|truncated/);
      }
    });

    it('a wrong or missing passphrase, or something that is not a backup, is refused', async () => {
      await refused(readFileSync(encrypted), 'not the passphrase', /wrong passphrase/);
      await refused(readFileSync(encrypted), undefined, /encrypted: give its passphrase/);
      await refused(Buffer.from('PGDMP and something else'), undefined, /not a VitalWatch backup/);
    });

    it('a target that is not empty is refused', async () => {
      await expect(
        restoreBackup(built().ctx.database, { source: () => plain, passphrase: undefined }),
      ).rejects.toThrow(RestoreRefused);
    });

    it('a backup of a newer schema than the code knows is refused', async () => {
      const newer = await emptyDatabase(target);
      try {
        await newer.database.migrate();
        await newer.database.db.execute(
          sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('future', 4102444800000)`,
        );
        const file = scratchFile();
        await writeBackup(
          { database: newer.database, keys: { jwtSecret: 'x'.repeat(32), vapid: null } },
          createWriteStream(file),
          undefined,
        );
        await refused(readFileSync(file), undefined, /newer than this version/, RestoreRefused);
      } finally {
        await newer.drop();
      }
    });
  },
);
