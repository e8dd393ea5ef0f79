import { describe, expect, it } from 'vitest';
import { dbTargets, unique, useTestApp } from './helpers.ts';

/** Writers racing for one unique value: the unique index decides, and the loser hears 409, never 500. */
describe.each(dbTargets())('unique races on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });

  it('ten sign-ups with one username at once: one account, nine 409s', async () => {
    const username = unique('race');
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        built()
          .app.inject({
            method: 'POST',
            url: '/api/v1/user/create',
            payload: {
              user: {
                fullName: 'Racer',
                username,
                email: `${username}.${i}@example.com`,
                password: 'Passw0rd!',
                cnfPassword: 'Passw0rd!',
              },
            },
          })
          .then((res) => res.statusCode),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
  });
});
