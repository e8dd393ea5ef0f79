// The server the end-to-end tests drive: the built web app, a fresh embedded database, a known admin.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeE2ePushPeerCert } from '../packages/server/test/push-peer-cert.mjs';
import { serverArgs, serverEnv } from './server-command.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-e2e-'));
// Tests read the mail the server sends from DATA_DIR/outbox (e2e/outbox.ts finds it here).
mkdirSync(path.join(root, '.tmp'), { recursive: true });
writeFileSync(path.join(root, '.tmp', `e2e-data-dir-${process.env.PORT ?? '3000'}`), dataDir);
// e2e/push.spec.ts runs a local HTTPS push service with this certificate; the server trusts it.
const pushPeer = writeE2ePushPeerCert(process.env.PORT ?? '3000');
const child = spawn(process.execPath, serverArgs(), {
  cwd: root,
  stdio: 'inherit',
  env: serverEnv({
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    LOG_LEVEL: 'warn',
    ADMIN_USERNAME: 'admin',
    ADMIN_EMAIL: 'admin@vitalwatch.test',
    ADMIN_PASSWORD: 'Adm1nPassw0rd',
    WEB_DIST: path.join(root, 'packages/web/dist'),
    NODE_EXTRA_CA_CERTS: pushPeer.certFile,
    // …on 127.0.0.1, which the push endpoint rules refuse but for tests.
    NODE_ENV: 'test',
    PUSH_TEST_ONLY_HOSTS: '127.0.0.1',
    // Every test user signs up from 127.0.0.1.
    SIGNUPS_PER_ADDRESS_PER_HOUR: '100000',
    // e2e/sms.spec.ts answers as Twilio on the server's port + 9 (only verified numbers get SMS).
    TWILIO_ACCOUNT_SID: 'ACe2e',
    TWILIO_AUTH_TOKEN: 'e2e-auth-token',
    TWILIO_FROM: '+15005550006',
    TWILIO_API_URL: `http://127.0.0.1:${Number(process.env.PORT ?? '3000') + 9}`,
  }),
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
