import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.ts';
import { startEarly } from './db/pglite-head-start.ts';

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

async function main() {
  const config = loadConfig(process.env);
  config.webDist ??= defaultWebDist;
  // The embedded database starts on the other core while the rest of the server loads.
  if (!config.databaseUrl && config.pgliteDir !== 'memory') startEarly(config.pgliteDir);
  const [{ buildApp }, { bootstrapAdmin }] = await Promise.all([
    import('./app.ts'),
    import('./bootstrap-admin.ts'),
  ]);
  const { app, ctx } = await buildApp(config);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took over 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const admin = await bootstrapAdmin(ctx);
  await app.listen({ port: config.port, host: config.host });
  // The port actually bound (PORT=0 picks a free one).
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
  const lines = [
    '',
    `  VitalWatch is running at ${url}`,
    `  Database: ${ctx.database.kind === 'pglite' ? `embedded PGlite in ${config.pgliteDir}` : 'PostgreSQL server'}`,
    `  ${ctx.mqtt.describe()}`,
  ];
  if (admin.kind === 'generated') {
    lines.push(
      '',
      '  First start: an administrator account was created. Note the password now; it is not shown again.',
      `    username: ${admin.username}`,
      `    password: ${admin.password}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`VitalWatch failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  process.exit(1);
});
