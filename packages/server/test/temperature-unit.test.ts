import { UNIT_MESSAGES } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

describe.each(dbTargets())('temperature unit on $name', (target) => {
  const built = useTestApp(target);
  const setUnit = (who: TestUser | undefined, unit: unknown) =>
    built().app.inject({
      method: 'POST',
      url: '/api/v1/user/temperature-unit',
      ...(who ? { headers: who.auth } : {}),
      payload: { unit },
    });
  const profile = async (who: TestUser) =>
    (await built().app.inject({ method: 'GET', url: '/api/v1/user/profile', headers: who.auth })).json().data
      .user;

  it('is °F until the user chooses °C, and stays chosen', async () => {
    const user = await signup(built());
    expect(user.user.temperatureUnit).toBe('F');
    const res = await setUnit(user, 'C');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: UNIT_MESSAGES.saved,
      data: { user: { temperatureUnit: 'C' } },
    });
    expect((await profile(user)).temperatureUnit).toBe('C');
    expect((await setUnit(user, 'F')).json().data.user.temperatureUnit).toBe('F');
  });

  it('refuses anything but F or C, and a guest', async () => {
    const user = await signup(built());
    const bad = await setUnit(user, 'K');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([{ path: 'unit', message: 'Unit must be F or C' }]);
    expect((await setUnit(undefined, 'C')).statusCode).toBe(401);
    expect((await profile(user)).temperatureUnit).toBe('F');
  });
});
