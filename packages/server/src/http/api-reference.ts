import swaggerUi from '@fastify/swagger-ui';
import { DEVICE_TOPIC_KINDS, INGEST_BATCH_MAX, SOCKET_EVENTS } from '@vitalwatch/shared';
import type { AppInstance } from '../context.ts';

/**
 * What the OpenAPI document cannot say by itself: how to authenticate, how devices send data
 * over MQTT, and the Socket.IO events a browser receives. Rendered at the top of /docs.
 */
export const API_DESCRIPTION = `
VitalWatch's HTTP API. Every path and schema below is generated from the server's own validation
schemas, so it is what the server accepts and answers.

## Authentication
- **People** sign in with \`POST /api/v1/user/login\` and send the access token as
  \`Authorization: Bearer <token>\`. It lives 15 minutes; \`POST /api/v1/user/refresh\` trades the
  refresh token for a new pair. Routes under \`/api/v1/admin\` need the admin role; every route
  checks that the caller may see the device or alert it names.
- **Devices** send \`X-Api-Key: <API code>\` (shown once to the admin who creates the device).

## Device ingestion
- HTTP: \`POST /api/v1/ingest/health\` and \`POST /api/v1/ingest/alert\`, one item or an array of up
  to ${INGEST_BATCH_MAX}. An answer of 202 means the items are stored; \`messageId\` makes a resend safe
  (counted under \`duplicates\`). 429 (with \`Retry-After\`) means the server is shedding load: send
  again later.
- MQTT (QoS 1): connect with the device id as user name and the API code as password, then publish
  the same JSON bodies to ${DEVICE_TOPIC_KINDS.map((k) => `\`devices/<deviceId>/${k}\``).join(' and ')}.
  The PUBACK comes once the message is stored; no PUBACK means resend.

## Real time (Socket.IO)
Connect to the same origin with \`io(url, { auth: { token: <access token> } })\`; the server joins the
socket to its user's room. Events from the server:
- \`${SOCKET_EVENTS.healthDataUpdate}\`: one stored reading of a device the user is assigned to
  (the same record as \`/api/v1/user/health/fetch\` returns).
- \`${SOCKET_EVENTS.alertsUpdate}\`: new alerts, newest last.
- \`${SOCKET_EVENTS.alertLifecycleUpdate}\`: an alert was acknowledged or resolved.
The client may emit \`${SOCKET_EVENTS.registerUser}\` with its own user id (kept for older clients).
`;

/** The API reference, rendered by Swagger UI at /docs from the OpenAPI document. */
export async function registerApiReference(app: AppInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
}
