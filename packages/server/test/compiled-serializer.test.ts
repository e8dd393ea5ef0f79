import { type Contract, contracts, profileResponse } from '@vitalwatch/shared';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledSerializerCompiler, compileResponse } from '../src/http/compiled-serializer.ts';
import { sampleOf, UNDECLARED } from './schema-samples.ts';

const withResponse = Object.entries(contracts).flatMap(([group, byName]) =>
  Object.entries(byName as Record<string, Contract>)
    .filter(([, c]) => c.response)
    .map(([name, c]) => ({ name: `${group}.${name}`, schema: c.response as z.ZodType })),
);
const VARIANTS = 6;

describe('replies serialised by code compiled from the response schemas', () => {
  it('every contract response compiles, and writes what JSON.stringify(schema.parse(value)) writes', () => {
    const unsampled: string[] = [];
    const notCompiled: string[] = [];
    for (const { name, schema } of withResponse) {
      const compiled = compileResponse(schema);
      if ('reason' in compiled) {
        notCompiled.push(`${name}: ${compiled.reason}`);
        continue;
      }
      let parsed = 0;
      for (let variant = 0; variant < VARIANTS; variant++) {
        const value = sampleOf(schema, variant);
        const zod = schema.safeParse(value);
        if (!zod.success) continue;
        parsed++;
        const json = compiled.stringify(value);
        expect(JSON.parse(json), `${name} #${variant}`).toEqual(JSON.parse(JSON.stringify(zod.data)));
        expect(json, `${name} #${variant}`).not.toContain(UNDECLARED);
      }
      if (parsed === 0) unsampled.push(name);
    }
    expect(notCompiled).toEqual([]);
    expect(unsampled).toEqual([]);
    expect(withResponse.length).toBeGreaterThan(100);
  });

  it('writes a tuple item by item by its type, a nullable one too (not each item through JSON.stringify)', () => {
    const compiled = compileResponse(z.object({ stats: z.tuple([z.number(), z.number().int()]).nullable() }));
    if ('reason' in compiled) throw new Error(compiled.reason);
    expect(compiled.stringify({ stats: [97.25, 180] })).toBe('{"stats":[97.25,180]}');
    expect(compiled.stringify({ stats: null })).toBe('{"stats":null}');
    // Typed code refuses what the schema does not allow; JSON.stringify of each item wrote it.
    expect(() => compiled.stringify({ stats: [97.25, 'a string'] })).toThrow();
    expect(() => compiled.stringify({ stats: [1, 2, 3] })).toThrow();
  });

  it('writes only declared properties, nested ones and those in unions too (nothing undeclared leaks)', async () => {
    const app = Fastify();
    app.setSerializerCompiler(compiledSerializerCompiler(app.log));
    const leaky = {
      success: true,
      message: 'ok',
      data: {
        user: {
          _id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
          username: 'ana',
          email: 'ana@example.com',
          fullName: 'Ana',
          role: 'user',
          fcmTokens: [],
          alertEmails: true,
          channelChecks: false,
          quietHours: null,
          temperatureUnit: 'C',
          twoFactorEnabled: false,
          recoveryCodesLeft: 0,
          emailVerified: true,
          createdAt: '2026-11-27T04:05:06.789Z',
          updatedAt: '2026-11-27T04:05:06.789Z',
          passwordHash: '$argon2id$secret',
          totpSecret: 'JBSWY3DPEHPK3PXP',
        },
        sessionToken: 'should-not-leave',
      },
    };
    app.get('/profile', { schema: { response: { 200: profileResponse } } }, async () => leaky);
    const reply = await app.inject('/profile');
    await app.close();
    expect(reply.body).not.toMatch(/passwordHash|argon2|totpSecret|JBSWY|sessionToken|should-not-leave/);
    expect(reply.statusCode).toBe(200);
    expect(JSON.parse(reply.body).data.user.username).toBe('ana');
  });

  it('a schema it cannot write faithfully (a transform, a rewriting check, a date) is left to zod', async () => {
    const trimmed = z.object({ name: z.string().trim() });
    const transformed = z.object({ n: z.number().transform((n) => n * 2) });
    const preprocessed = z.preprocess((v) => v, z.object({ at: z.string() }));
    for (const schema of [trimmed, transformed, preprocessed, z.object({ at: z.date() })])
      expect(compileResponse(schema)).toHaveProperty('reason');
    const debug: unknown[] = [];
    const app = Fastify({
      logger: { level: 'debug', stream: { write: (line: string) => debug.push(JSON.parse(line)) } },
    });
    app.setSerializerCompiler(compiledSerializerCompiler(app.log));
    app.get('/trimmed', { schema: { response: { 200: trimmed } } }, async () => ({
      name: '  ana  ',
      extra: 1,
    }));
    const reply = await app.inject('/trimmed');
    await app.close();
    expect(reply.json()).toEqual({ name: 'ana' });
    expect(debug).toContainEqual(
      expect.objectContaining({ route: 'GET /trimmed', msg: 'reply serialised by zod' }),
    );
  });
});
