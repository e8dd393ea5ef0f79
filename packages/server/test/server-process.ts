import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './realtime-helpers.ts';

const mainTs = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output: () => string;
}

/** The real `main.ts` in its own OS process (on `port`, or a free one); resolves once it prints its URL. */
export async function startServer(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  port ??= await freePort();
  const child = spawn(process.execPath, [mainTs], {
    env: {
      ...process.env,
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      // Every test process signs its users up from 127.0.0.1, and with Redis the count is shared.
      SIGNUPS_PER_ADDRESS_PER_HOUR: '100000',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 45_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('VitalWatch is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return { url: `http://127.0.0.1:${port}`, child, output: () => output };
}

export const stop = (server: ServerProcess | undefined) =>
  new Promise<void>((resolve) => {
    // Already gone (exited, or killed by a signal): nothing to wait for.
    if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });

/** Resolves once the process has printed `text` (polling its output; the test's timeout bounds it). */
export async function waitForOutput(server: ServerProcess, text: string): Promise<void> {
  while (!server.output().includes(text)) await new Promise((r) => setTimeout(r, 20));
}
