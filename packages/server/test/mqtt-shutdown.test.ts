import { deviceTopic } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { countRows, userWithDevice } from './device-helpers.ts';
import { createAdmin, openMigratedPglite, testConfig } from './helpers.ts';
import { brokerUrl, closed, connectDevice } from './mqtt-helpers.ts';
import { connectSocket, freePort, listenOnce } from './realtime-helpers.ts';

describe('shutdown with devices and browsers connected (PGlite)', () => {
  it('closes the app promptly, disconnecting MQTT devices and sockets, with every acknowledged reading stored', async () => {
    const database = await openMigratedPglite();
    const built = await buildApp(testConfig({ mqttPort: await freePort() }), { database });
    await built.app.ready();
    const admin = await createAdmin(built);
    const { user, device } = await userWithDevice(built, admin);
    const client = await connectDevice(brokerUrl(built), device);
    const socket = await connectSocket(await listenOnce(built), { token: user.accessToken });
    const socketGone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await client.publishAsync(deviceTopic(device._id, 'health'), JSON.stringify({ heartRate: 70 }), {
      qos: 1,
    });
    expect(await countRows(built, 'health_records', device._id)).toBe(1);

    const deviceGone = closed(client);
    const started = Date.now();
    await built.app.close();
    expect(Date.now() - started).toBeLessThan(5000);
    await deviceGone;
    expect(await socketGone).toBe('io server disconnect');
    client.end(true);
    socket.close();
  });
});
