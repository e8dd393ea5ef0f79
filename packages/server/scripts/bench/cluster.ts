// Server processes for the benchmark: the server as `npm start` runs it (its V8 flags, its bundle), each in
// its own OS process, all on one scratch PostgreSQL database, and the means to kill one with SIGKILL and
// start it again.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { serverArgs, serverEnv } from '../../../../scripts/server-command.mjs';
import { scratchDatabase as scratch } from '../../test/scratch-database.ts';

/** A database of its own for the benchmark's processes; `drop` removes it. */
export const scratchDatabase = (serverUrl: string) => scratch(serverUrl, 'vw_bench');

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** One server process: its URL, and whether it answers now. */
export interface Member {
  url: string;
  port: number;
  child: ChildProcess;
  up: boolean;
}

/** Resolves once the process answers /readyz (or rejects when it exits first). */
async function waitReady(member: Member): Promise<void> {
  for (let i = 0; i < 900; i++) {
    if (member.child.exitCode !== null || member.child.signalCode !== null)
      throw new Error(`server exited (${member.child.exitCode ?? member.child.signalCode})`);
    const ok = await fetch(`${member.url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server not ready after 90 s');
}

/** Several server processes sharing one environment (one database, one data directory). */
export class Cluster {
  readonly members: Member[] = [];
  /** Processes killed and started again. */
  kills = 0;
  private readonly env: Record<string, string>;
  /** Worked out once (it reads every source file, and may build the bundle): not during a measurement. */
  private readonly args = serverArgs();
  private turn = 0;

  constructor(env: Record<string, string>) {
    this.env = env;
  }

  /** Start `count` processes, the first alone (it migrates the database), then the others together. */
  async start(count: number): Promise<void> {
    const [port, ...others] = await Promise.all(Array.from({ length: count }, freePort));
    if (port === undefined) throw new Error('no process');
    await this.ready(this.spawn(port));
    await Promise.all(others.map((p) => this.ready(this.spawn(p))));
  }

  /** A process that answers, in turn (round robin over those up). */
  next(): Member | undefined {
    const up = this.members.filter((m) => m.up);
    this.turn += 1;
    return up[this.turn % Math.max(1, up.length)];
  }

  /** SIGKILL the next process in turn and start it again on the same port; resolves once it answers. */
  async killOne(): Promise<void> {
    const index = this.kills % this.members.length;
    const victim = this.members[index];
    if (!victim) return;
    this.kills += 1;
    victim.up = false;
    const exited = new Promise((resolve) => victim.child.once('exit', resolve));
    victim.child.kill('SIGKILL');
    await exited;
    const again = this.spawn(victim.port, index);
    await this.ready(again);
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.members.map(
        (m) =>
          new Promise<void>((resolve) => {
            m.up = false;
            if (m.child.exitCode !== null || m.child.signalCode !== null) return resolve();
            m.child.once('exit', () => resolve());
            m.child.kill('SIGTERM');
          }),
      ),
    );
  }

  private spawn(port: number, index = this.members.length): Member {
    const child = spawn(process.execPath, this.args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: serverEnv({ ...process.env, ...this.env, PORT: String(port), HOST: '127.0.0.1' }),
    });
    const member = { url: `http://127.0.0.1:${port}`, port, child, up: false };
    this.members[index] = member;
    return member;
  }

  private async ready(member: Member): Promise<void> {
    await waitReady(member);
    member.up = true;
  }
}
