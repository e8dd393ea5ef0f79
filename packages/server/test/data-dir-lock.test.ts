import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from '../src/db/data-dir-lock.ts';

const fresh = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'vw-lock-'));
  return { dir: path.join(root, 'pglite'), lockFile: path.join(root, 'pglite.lock') };
};

/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

describe('the embedded database directory lock', () => {
  it('is held by this process until released, and taken again by it (the head start, then the database)', () => {
    const { dir, lockFile } = fresh();
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    const again = lockDataDir(dir);
    again();
    expect(existsSync(lockFile)).toBe(false);
    release();
  });

  it('refuses a directory a live process holds, and takes over one whose process is gone', () => {
    const { dir, lockFile } = fresh();
    writeFileSync(lockFile, String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${process.ppid}`);
    writeFileSync(lockFile, String(deadPid()));
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    expect(existsSync(`${lockFile}.takeover`)).toBe(false);
    release();
  });

  it('lets one process at a time take over an abandoned lock', () => {
    const { dir, lockFile } = fresh();
    writeFileSync(lockFile, String(deadPid()));
    // Another live process is taking it over: refused, the abandoned lock left to it.
    writeFileSync(`${lockFile}.takeover`, String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${process.ppid}`);
    // That process died taking it over: its takeover is removed and this one takes the lock.
    writeFileSync(`${lockFile}.takeover`, String(deadPid()));
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    expect(existsSync(`${lockFile}.takeover`)).toBe(false);
    release();
  });

  it('refuses a lock still being written, and takes over one left empty', () => {
    const { dir, lockFile } = fresh();
    writeFileSync(lockFile, '');
    expect(() => lockDataDir(dir)).toThrow('in use by another process');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockFile, old, old);
    lockDataDir(dir)();
    expect(existsSync(lockFile)).toBe(false);
  });

  it("leaves a lock that became another process's on release", () => {
    const { dir, lockFile } = fresh();
    const release = lockDataDir(dir);
    writeFileSync(lockFile, String(process.ppid));
    release();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.ppid));
  });
});
