import { contracts } from '@vitalwatch/shared';
import { caller } from '../auth/plugin.ts';
import type { AppContext, AppInstance } from '../context.ts';
import { serveContracts, userAuthHooks } from '../http/contract-routes.ts';

/**
 * `contracts.sms` under /api/v1/sms: the caller's number for alert SMS (Profile → Notifications),
 * and Twilio's inbound webhook, which posts form fields and is signed, not signed in.
 */
export async function smsRoutes(app: AppInstance, ctx: AppContext) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, raw, done) => done(null, Object.fromEntries(new URLSearchParams(String(raw)))),
  );
  serveContracts(app, userAuthHooks(ctx.guards), contracts.sms, {
    status: async (request) => ctx.sms.status(caller(request).userId),
    // Codes are limited per person (SMS_CODE_SENDS), besides the server's per-address limit.
    setNumber: async (request) => ctx.sms.setNumber(caller(request).userId, request.body.phone),
    verify: async (request) => ctx.sms.verify(caller(request).userId, request.body.code),
    remove: async (request) => ctx.sms.remove(caller(request).userId),
    test: async (request) => ctx.sms.test(caller(request).userId),
    inbound: async (request) => {
      const signature = request.headers['x-twilio-signature'];
      await ctx.sms.inbound(request.url, request.body, typeof signature === 'string' ? signature : undefined);
    },
  });
}
