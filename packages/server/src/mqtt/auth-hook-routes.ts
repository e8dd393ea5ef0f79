import { timingSafeEqual } from 'node:crypto';
import { contracts } from '@vitalwatch/shared';
import type { z } from 'zod';
import type { AppContext, AppInstance } from '../context.ts';
import { isDomainError } from '../errors.ts';
import { serveContracts } from '../http/contract-routes.ts';
import { isDeviceId } from './connect-guard.ts';
import { parseDeviceTopic } from './device-messages.ts';
import type { WrongCodeWatch } from './wrong-code-watch.ts';

type HookAnswer = z.infer<typeof contracts.brokerHook.auth.response>;
const allow = (superuser = false): HookAnswer => ({ result: 'allow', is_superuser: superuser });
const deny: HookAnswer = { result: 'deny', is_superuser: false };

const sameSecret = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * With an external broker (MQTT_URL), device authentication and the topic ACL belong to the
 * broker. These endpoints are its HTTP hooks, in EMQX's format (HTTP authentication and HTTP
 * authorization: answer 200 `{result: "allow" | "deny"}`):
 * - POST /api/v1/mqtt/auth `{username, password}`: a device (id + apiAuthCode) is allowed; so is
 *   the server itself, with the credentials of MQTT_URL, as superuser. A right code is always
 *   allowed: wrong codes per device id (`wrongCodes`, shared with the embedded broker) are only
 *   reported. Nothing per address: the broker calls from its own, which says nothing about the
 *   device; limiting floods of failing CONNECTs is the broker's job.
 * - POST /api/v1/mqtt/acl `{username, topic, action}`: a device may publish to its own
 *   `devices/<id>/health|alert` only, and subscribe to nothing.
 * Registered only when MQTT_URL is set.
 */
export async function mqttAuthHookRoutes(app: AppInstance, ctx: AppContext, wrongCodes: WrongCodeWatch) {
  const url = new URL(ctx.config.mqttUrl ?? 'mqtt://localhost');
  const server = { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  const rateLimit = { max: 1000, timeWindow: 1000 };

  serveContracts(app, {}, contracts.brokerHook, {
    auth: {
      rateLimit,
      handler: async (request) => {
        const { username, password } = request.body;
        if (!username || !password) return deny;
        if (
          server.username &&
          server.password &&
          username === server.username &&
          sameSecret(password, server.password)
        ) {
          return allow(true);
        }
        // Anything but a UUID can never be a device (and gets no counter of its own).
        if (!isDeviceId(username)) return deny;
        try {
          await ctx.ingest.authenticateDevice(username, password);
        } catch (err) {
          if (!isDomainError(err, 'unknownApiKey', 'deviceInactive')) throw err;
          // deviceInactive is the right code of a disabled device: not a guess, not counted.
          if (err.code === 'unknownApiKey') await wrongCodes.wrong(username, request.log);
          return deny;
        }
        return allow();
      },
    },
    acl: {
      rateLimit,
      handler: async (request) => {
        const { username, topic, action } = request.body;
        const target = parseDeviceTopic(topic);
        return action === 'publish' && username && target?.deviceId === username ? allow() : deny;
      },
    },
  });
}
