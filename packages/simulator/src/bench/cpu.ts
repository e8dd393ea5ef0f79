import { readdirSync, readFileSync } from 'node:fs';

/*
 * Where the benchmarks' CPU goes, read from /proc (Linux): the server process, the processes named
 * `postgres` on this machine, the bench's own process (its load generator's thread and the rest),
 * the machine. Node's own modules only: the load worker (`load-worker.ts`) samples the edges of
 * the window it measures.
 */

/** /proc's clock ticks a second (USER_HZ, `getconf CLK_TCK`): 100 on Linux's usual builds. */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) of a process; 0 once it is gone. */
function cpuSecondsOf(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Busy and total CPU seconds of the whole machine. */
function machineSeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, ...values] = line.trim().split(/\s+/);
  const n = values.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

export interface CpuSnapshot {
  at: number;
  server: number;
  /** CPU seconds of each PostgreSQL process (the postmaster, each backend) by pid. */
  postgres: Map<string, number>;
  bench: number;
  machine: { busy: number; total: number };
}

/** Where the CPU goes: the server process, PostgreSQL's processes, this load generator, the machine. */
export function cpuSnapshot(serverPid: number): CpuSnapshot {
  const postgres = new Map(
    readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d) && commandOf(d) === 'postgres')
      .map((pid) => [pid, cpuSecondsOf(pid)]),
  );
  const self = process.cpuUsage();
  return {
    at: Date.now(),
    server: cpuSecondsOf(serverPid),
    postgres,
    bench: (self.user + self.system) / 1e6,
    machine: machineSeconds(),
  };
}

/**
 * CPU seconds used between two snapshots, and the wall time they span. PostgreSQL's share is summed
 * per process: a backend that started in between counts from zero, and one that has exited by `b`
 * is left out (a sum over whichever processes exist would go down, even below zero, when one exits).
 */
export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot) {
  const machineBusy = b.machine.busy - a.machine.busy;
  const server = b.server - a.server;
  let postgres = 0;
  for (const [pid, seconds] of b.postgres) postgres += Math.max(0, seconds - (a.postgres.get(pid) ?? 0));
  const bench = b.bench - a.bench;
  return {
    wall: (b.at - a.at) / 1000,
    server,
    postgres,
    bench,
    /** Everything else on the machine (other programs compete for the same two cores). */
    other: Math.max(0, machineBusy - server - postgres - bench),
  };
}
export type CpuUse = ReturnType<typeof cpuBetween>;
