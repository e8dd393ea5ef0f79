import type { HealthRecord, SocketAck } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { updateUser } from '../src/modules/user/repository.ts';
import { postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, useTestApp } from './helpers.ts';
import { alertRecord } from './push-fixtures.ts';
import { connectSocket, listenOnce, recordEvents, useSockets } from './realtime-helpers.ts';

const healthRecord = (device: string, heartRate: number): HealthRecord => ({
  _id: String(Math.floor(Math.random() * 1e9)),
  device,
  spo2: 98,
  heartRate,
  temperature: 97.9,
  battery: 80,
  createdAt: new Date().toISOString(),
});

describe.each(dbTargets())('Socket.IO real time on $name', (target) => {
  const built = useTestApp(target);
  const connect = useSockets(built);

  it('refuses a socket without a token, with a bad token, and with a refresh token', async () => {
    const alice = await signup(built());
    await expect(connect(undefined)).rejects.toThrow('Authentication required');
    await expect(connect({ token: '' })).rejects.toThrow('Authentication required');
    await expect(connect({ token: 'not-a-jwt' })).rejects.toThrow('Invalid or expired token');
    await expect(connect({ token: alice.refreshToken })).rejects.toThrow('Invalid or expired token');
  });

  it('refuses a browser page of another origin, accepts its own origin', async () => {
    const alice = await signup(built());
    const url = await listenOnce(built());
    await expect(connect({ token: alice.accessToken }, { origin: 'http://evil.example' })).rejects.toThrow();
    const own = await connect({ token: alice.accessToken }, { origin: url });
    expect(own.connected).toBe(true);
  });

  it('honours register-user only for the token’s own user id', async () => {
    const alice = await signup(built());
    const bob = await signup(built());
    const socket = await connect({ token: alice.accessToken });
    const own: SocketAck = await socket.emitWithAck('register-user', alice.user._id);
    expect(own).toEqual({ success: true, message: 'Registered for live updates' });
    const other: SocketAck = await socket.emitWithAck('register-user', bob.user._id);
    expect(other).toEqual({ success: false, message: 'You can only register your own user id' });

    const refused = new Promise<SocketAck>((resolve) => socket.once('register-user-error', resolve));
    socket.emit('register-user', bob.user._id);
    expect(await refused).toEqual({ success: false, message: 'You can only register your own user id' });

    // Refused registration changes nothing: Bob's news still never reaches Alice's socket.
    const aliceHealth = recordEvents(socket, 'healthDataUpdate');
    const bobSocket = await connect({ token: bob.accessToken });
    const bobHealth = recordEvents(bobSocket, 'healthDataUpdate');
    built().ctx.events.emit(
      'health',
      { deviceId: 'd-bob', userIds: [bob.user._id], contactIds: [bob.user._id] },
      [healthRecord('d-bob', 70)],
    );
    await bobHealth.waitFor(1);
    built().ctx.events.emit(
      'health',
      { deviceId: 'd-alice', userIds: [alice.user._id], contactIds: [alice.user._id] },
      [healthRecord('d-alice', 71)],
    );
    await aliceHealth.waitFor(1);
    expect(aliceHealth.received.map((r) => r.device)).toEqual(['d-alice']);
  });

  it('delivers each user’s health records and alerts to that user’s sockets only', async () => {
    const alice = await signup(built());
    const bob = await signup(built());
    const aliceTab1 = await connect({ token: alice.accessToken });
    const aliceTab2 = await connect({ token: alice.accessToken });
    const bobTab = await connect({ token: bob.accessToken });
    const health = [aliceTab1, aliceTab2, bobTab].map((s) => recordEvents(s, 'healthDataUpdate'));
    const alerts = [aliceTab1, aliceTab2, bobTab].map((s) => recordEvents(s, 'alertsUpdate'));
    const events = built().ctx.events;

    const aliceRecords = [healthRecord('d-alice', 72), healthRecord('d-alice', 73)];
    events.emit(
      'health',
      { deviceId: 'd-alice', userIds: [alice.user._id], contactIds: [alice.user._id] },
      aliceRecords,
    );
    events.emit('alerts', { deviceId: 'd-alice', userIds: [alice.user._id], contactIds: [alice.user._id] }, [
      alertRecord('d-alice', 'SOS'),
    ]);
    for (const tab of [0, 1]) {
      expect(await health[tab]!.waitFor(2)).toEqual(aliceRecords);
      const [batch] = await alerts[tab]!.waitFor(1);
      expect(batch).toEqual([
        expect.objectContaining({ device: 'd-alice', alertType: 'SOS', isRead: false }),
      ]);
    }

    // A later event for Bob, emitted after Alice's arrived: had Alice's reached Bob, it would be first.
    const bobRecord = healthRecord('d-bob', 64);
    events.emit('health', { deviceId: 'd-bob', userIds: [bob.user._id], contactIds: [bob.user._id] }, [
      bobRecord,
    ]);
    events.emit('alerts', { deviceId: 'd-bob', userIds: [bob.user._id], contactIds: [bob.user._id] }, [
      alertRecord('d-bob', 'FALL'),
    ]);
    expect(await health[2]!.waitFor(1)).toEqual([bobRecord]);
    const [bobAlerts] = await alerts[2]!.waitFor(1);
    expect(bobAlerts?.map((a) => a.device)).toEqual(['d-bob']);
    expect(health[0]!.received).toHaveLength(2);
    expect(alerts[0]!.received).toHaveLength(1);
  });

  it('delivers to every user assigned to a shared device', async () => {
    const alice = await signup(built());
    const bob = await signup(built());
    const sockets = [await connect({ token: alice.accessToken }), await connect({ token: bob.accessToken })];
    const health = sockets.map((s) => recordEvents(s, 'healthDataUpdate'));
    const record = healthRecord('d-shared', 88);
    built().ctx.events.emit(
      'health',
      {
        deviceId: 'd-shared',
        userIds: [alice.user._id, bob.user._id],
        contactIds: [alice.user._id, bob.user._id],
      },
      [record],
    );
    for (const h of health) expect(await h.waitFor(1)).toEqual([record]);
  });

  it('drops at the next revalidation a socket whose token stopped authenticating unannounced', async () => {
    const alice = await signup(built());
    const bob = await signup(built());
    const aliceSocket = await connect({ token: alice.accessToken });
    const bobSocket = await connect({ token: bob.accessToken });
    expect(await built().realtime.revalidate()).toBe(0);

    // Straight in the database, so no sessionsEnded notice closes the socket first (the
    // realtime-sessions tests cover those); like an expired token, only the periodic check sees it.
    await updateUser(built().ctx.db, alice.user._id, { tokensValidAfter: new Date() });
    const gone = new Promise<string>((resolve) => aliceSocket.once('disconnect', resolve));
    expect(await built().realtime.revalidate()).toBe(1);
    expect(await gone).toBe('io server disconnect');
    expect(bobSocket.connected).toBe(true);
    await expect(connect({ token: alice.accessToken })).rejects.toThrow('Invalid or expired token');
  });

  it('through ingestion: two users, two devices, each socket gets only its own device’s news', async () => {
    const admin = await createAdmin(built());
    const alice = await userWithDevice(built(), admin);
    const bob = await userWithDevice(built(), admin);
    const aliceSocket = await connect({ token: alice.user.accessToken });
    const bobSocket = await connect({ token: bob.user.accessToken });
    const [aliceHealth, bobHealth] = [aliceSocket, bobSocket].map((s) => recordEvents(s, 'healthDataUpdate'));
    const [aliceAlerts, bobAlerts] = [aliceSocket, bobSocket].map((s) => recordEvents(s, 'alertsUpdate'));

    expect(
      (await postHealth(built(), alice.device.apiAuthCode, [{ heartRate: 72 }, { heartRate: 74 }]))
        .statusCode,
    ).toBe(202);
    expect((await postAlert(built(), alice.device.apiAuthCode, { alertType: 'FALL' })).statusCode).toBe(202);
    const records = await aliceHealth!.waitFor(2);
    expect(records.map((r) => [r.device, r.heartRate])).toEqual([
      [alice.device._id, 72],
      [alice.device._id, 74],
    ]);
    expect(records[0]).toEqual(expect.objectContaining({ createdAt: expect.any(String) }));
    const [aliceBatch] = await aliceAlerts!.waitFor(1);
    expect(aliceBatch).toEqual([expect.objectContaining({ device: alice.device._id, alertType: 'FALL' })]);

    // Bob's later news arrives first on his socket: nothing of Alice's reached it before.
    expect((await postHealth(built(), bob.device.apiAuthCode, { heartRate: 90 })).statusCode).toBe(202);
    expect((await postAlert(built(), bob.device.apiAuthCode, { alertType: 'SOS' })).statusCode).toBe(202);
    expect((await bobHealth!.waitFor(1)).map((r) => r.device)).toEqual([bob.device._id]);
    const [bobBatch] = await bobAlerts!.waitFor(1);
    expect(bobBatch?.map((a) => [a.device, a.alertType])).toEqual([[bob.device._id, 'SOS']]);
    expect(aliceHealth!.received).toHaveLength(2);
    expect(aliceAlerts!.received).toHaveLength(1);
  });
});

describe('Socket.IO with CORS_ORIGINS (PGlite)', () => {
  const [pglite] = dbTargets();
  const built = useTestApp(pglite!, { corsOrigins: ['http://app.example'] });

  it('accepts a listed origin and still refuses others', async () => {
    const alice = await signup(built());
    const url = await listenOnce(built());
    const listed = await connectSocket(url, { token: alice.accessToken }, { origin: 'http://app.example' });
    expect(listed.connected).toBe(true);
    listed.close();
    await expect(
      connectSocket(url, { token: alice.accessToken }, { origin: 'http://other.example' }),
    ).rejects.toThrow();
  });
});
