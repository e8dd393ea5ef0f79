// `npm run simulate -- --devices N --interval S [--mqtt|--http] ...`: wearables streaming vitals.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ServerApi } from './api.ts';
import { assignDevices, ensureDevices, loadDevices, saveDevices } from './devices.ts';
import { acceptsWrongPassword, type DeviceLink, httpLink, mqttLink } from './links.ts';
import { inBatches, Progress } from './progress.ts';
import { Simulation } from './simulation.ts';

const HELP = `Usage: npm run simulate -- [options]

  --devices N            simulated wearables (default 10)
  --interval S           seconds between readings per device (default 5; fractions allowed)
  --http | --mqtt        transport (default --http)
  --url URL              server (default http://127.0.0.1:3000)
  --mqtt-url URL         MQTT broker (default mqtt://<server host>:1883; the server prints where its broker listens)
  --admin-user NAME      admin who creates missing devices (default admin)
  --admin-password PW    or env VW_ADMIN_PASSWORD; needed to create devices and to assign them
  --assign-to USERNAME   assign the devices to this user (role user): they see them live in My Devices
  --api-codes FILE       reuse these devices (JSON: [{_id, apiAuthCode}] or a file saved by a run)
  --save FILE            where created devices are saved and reused from (default ./simulated-devices.json)
  --duration S           stop after S seconds (default: run until Ctrl+C)
  --seed N               vary the simulated people (default 1)
`;

const options = z.object({
  devices: z.coerce.number().int().min(1).max(100_000),
  interval: z.coerce.number().min(0.001).max(86_400),
  url: z.url(),
  mqttUrl: z
    .string()
    .regex(/^(mqtts?|tcp|wss?):\/\//, 'must be an mqtt:// URL')
    .optional(),
  adminUser: z.string().min(1),
  adminPassword: z.string().min(1).optional(),
  assignTo: z.string().trim().min(1).optional(),
  apiCodes: z.string().optional(),
  save: z.string().min(1),
  duration: z.coerce.number().positive().optional(),
  seed: z.coerce.number().int(),
  mqtt: z.boolean(),
});

function readOptions() {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '10' },
      interval: { type: 'string', default: '5' },
      http: { type: 'boolean', default: false },
      mqtt: { type: 'boolean', default: false },
      url: { type: 'string', default: 'http://127.0.0.1:3000' },
      'mqtt-url': { type: 'string' },
      'admin-user': { type: 'string', default: 'admin' },
      'admin-password': { type: 'string', default: process.env.VW_ADMIN_PASSWORD },
      'assign-to': { type: 'string' },
      'api-codes': { type: 'string' },
      save: { type: 'string', default: 'simulated-devices.json' },
      duration: { type: 'string' },
      seed: { type: 'string', default: '1' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  if (values.http && values.mqtt) throw new Error('choose one of --http and --mqtt');
  const parsed = options.safeParse({
    ...values,
    mqttUrl: values['mqtt-url'],
    adminUser: values['admin-user'],
    adminPassword: values['admin-password'],
    assignTo: values['assign-to'],
    apiCodes: values['api-codes'],
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`--${String(issue?.path[0] ?? '')}: ${issue?.message}\n\n${HELP}`);
  }
  return parsed.data;
}

async function main() {
  const opts = readOptions();
  const api = new ServerApi(opts.url);
  // `npm run simulate` runs in packages/simulator; paths are meant relative to where it was typed.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const saveFile = path.resolve(cwd, opts.save);
  const known = loadDevices(opts.apiCodes ? path.resolve(cwd, opts.apiCodes) : saveFile) ?? [];
  const password = opts.adminPassword;
  let session: Promise<string> | undefined;
  const admin = password
    ? () => (session ??= api.login(opts.adminUser, password).then((s) => s.accessToken))
    : undefined;
  if (opts.assignTo && !admin) {
    throw new Error(
      '--assign-to needs --admin-password (or VW_ADMIN_PASSWORD): assigning devices is an admin action',
    );
  }
  const devices = await ensureDevices({
    api,
    count: opts.devices,
    known,
    admin,
    onCreated: (n) => process.stdout.write(`\rcreating devices: ${n}/${opts.devices}`),
  });
  if (devices.length > known.length) {
    saveDevices(saveFile, opts.url, [...devices, ...known.slice(devices.length)]);
    process.stdout.write(`\nsaved ${devices.length} devices to ${saveFile}; a rerun reuses them.\n`);
  }
  if (opts.assignTo && admin) {
    const added = await assignDevices(api, await admin(), opts.assignTo, devices);
    process.stdout.write(
      `assigned ${devices.length} devices to ${opts.assignTo} (${added} newly): signed in as ${opts.assignTo},` +
        ' they see them live in My Devices and on the dashboard.\n',
    );
  } else if (devices.length > known.length) {
    process.stdout.write(
      'To watch one, rerun with --assign-to <username>, or add it in My Devices with its activationCode from that file.\n',
    );
  }

  const transport = opts.mqtt ? 'mqtt' : 'http';
  const mqttUrl = opts.mqttUrl ?? `mqtt://${new URL(opts.url).hostname}:1883`;
  process.stdout.write(
    `connecting ${devices.length} devices over ${transport === 'mqtt' ? mqttUrl : opts.url}\n`,
  );
  if (opts.mqtt && devices[0] && (await acceptsWrongPassword(mqttUrl, devices[0]._id))) {
    process.stdout.write(
      `warning: ${mqttUrl} accepted a wrong device password, so it is probably not VitalWatch's broker` +
        ' (another broker on that port?). The server prints where its broker listens: pass --mqtt-url.\n',
    );
  }
  const links: DeviceLink[] = opts.mqtt
    ? await inBatches(devices, 50, (d) => mqttLink(mqttUrl, d))
    : devices.map((d) => httpLink(api, d));

  const simulation = new Simulation(devices, links, opts.interval * 1000, opts.seed);
  const progress = new Progress(simulation.counters, `${transport} · ${devices.length} devices`);
  simulation.start();
  progress.start();

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) {
      process.stdout.write('\nforced exit\n');
      process.exit(130);
    }
    stopping = true;
    process.stdout.write(`\n${why}: flushing buffered readings (Ctrl+C again to force)…\n`);
    await simulation.stop();
    progress.stop();
    process.stdout.write(`${progress.summary()}\n`);
    process.exit(simulation.counters.errors > 0 ? 1 : 0);
  };
  process.on('SIGINT', () => void stop('stopping'));
  process.on('SIGTERM', () => void stop('stopping'));
  if (opts.duration) setTimeout(() => void stop(`${opts.duration} s elapsed`), opts.duration * 1000);
}

main().catch((err: unknown) => {
  process.stderr.write(`simulate: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
