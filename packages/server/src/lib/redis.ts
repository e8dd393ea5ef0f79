/**
 * ioredis, loaded when a client is first made: only a server given REDIS_URL uses it. Like it, the
 * packages only some servers or requests use (the MQTT client, nodemailer, web-push, PDFKit, the QR
 * encoder) are loaded when first needed: evaluating them all at every start cost a restart on
 * PostgreSQL about 0.1 s of CPU (`npm run bench:start`; server-bundle.test.ts checks they stay out).
 */
export const loadIoredis = () => import('ioredis');
