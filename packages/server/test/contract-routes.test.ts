import { type Contract, contracts, fullPathOf, SHARE_MESSAGES } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { contractClient, dataOf, issuesOf } from './contract-client.ts';
import { factories } from './factories.ts';
import { dbTargets, useTestApp } from './helpers.ts';
import { fetchDocument, operationsOf } from './openapi-document.ts';

const everyContract: Contract[] = Object.values(contracts).flatMap((group) => Object.values(group));
/** Every contract's security in the API document: none, a device's key, or a bearer token. */
const securityOf = (contract: Contract) =>
  contract.auth === 'public' ? [] : [contract.auth === 'device' ? { deviceKey: [] } : { bearer: [] }];

describe.each(dbTargets())('routes registered from their contracts on $name', (target) => {
  const built = useTestApp(target);
  const make = factories(built);

  it('serves and documents every contract: its method and path, summary, auth', async () => {
    const document = await fetchDocument(built());
    const operations = new Map(
      operationsOf(document).map(({ method, path, operation }) => [`${method} ${path}`, operation]),
    );
    // The broker's hooks are served only with MQTT_URL: openapi.test.ts checks them there.
    const brokerHooks = new Set<Contract>(Object.values(contracts.brokerHook));
    for (const contract of everyContract.filter((c) => !brokerHooks.has(c))) {
      const path = fullPathOf(contract).replace(/:(\w+)/g, '{$1}');
      const operation = operations.get(`${contract.method} ${path}`);
      expect(operation?.summary, `${contract.method} ${path}`).toBe(contract.summary);
      expect(operation?.security).toEqual(securityOf(contract));
      for (const status of contract.errors ?? [])
        expect(Object.keys(operation?.responses ?? {})).toContain(`${status}`);
    }
  });

  it("wraps the handler's data in the envelope with the contract's message and status", async () => {
    const { user, device } = await make.userWithDevice();
    const created = await contractClient(built(), user).call(contracts.share.create, {
      body: { deviceId: device._id, days: 7 },
    });
    expect(created.statusCode).toBe(201);
    expect(dataOf(created)).toMatchObject({ success: true, message: SHARE_MESSAGES.created });
    expect(dataOf(created).data.link.deviceId).toBe(device._id);
  });

  it('applies the auth of the route prefix: 401 without a token, 403 for another role', async () => {
    const list = contracts.device.list;
    expect((await contractClient(built()).call(list, {})).statusCode).toBe(401);
    expect((await contractClient(built(), await make.admin()).call(list, {})).statusCode).toBe(403);
    const { user, device } = await make.userWithDevice();
    const reply = await contractClient(built(), user).call(list, {});
    expect(dataOf(reply).data.devices.map((d) => d._id)).toEqual([device._id]);
  });

  it("validates with the contract's schemas: 400 with per-field issues", async () => {
    const user = await make.user();
    const reply = await contractClient(built(), user).callLoose(contracts.share.create, {
      body: { deviceId: 'x', days: 2 },
    });
    expect(reply.statusCode).toBe(400);
    expect(issuesOf(reply)).toEqual([{ path: 'days', message: SHARE_MESSAGES.daysInvalid }]);
  });
});
