/**
 * The packages only some servers or requests use, loaded when first needed rather than at every
 * start: evaluating them all cost a restart on PostgreSQL about 0.1 s of CPU (`npm run bench:start`;
 * server-bundle.test.ts checks that none of them is loaded by a plain start).
 * - ioredis and the Socket.IO Redis adapter: only a server given REDIS_URL;
 * - the MQTT client: only a server given MQTT_URL;
 * - nodemailer: the first email or SMTP check, and a server may send none for hours;
 * - web-push: the first push sent;
 * - the QR encoder: the first two-factor setup; PDFKit and the QR encoder of the label sheet and
 *   the report come with the modules that draw them, imported when first asked for
 *   (modules/device/admin-routes.ts, modules/export/service.ts).
 */
export const loadIoredis = () => import('ioredis');
export const loadRedisAdapter = () => import('@socket.io/redis-adapter');
export const loadMqtt = () => import('mqtt');
export const loadNodemailer = () => import('nodemailer');
export const loadWebPush = async () => (await import('web-push')).default;
export const loadQrcode = async () => (await import('qrcode')).default;
