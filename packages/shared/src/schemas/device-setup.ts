import { z } from 'zod';
import { envelope } from './common.ts';
import { healthRecord } from './health.ts';

/** Texts of the admin's first-run path: a device's latest reading and its test reading. */
export const DEVICE_SETUP_MESSAGES = {
  latestFetched: 'Latest reading fetched successfully',
  testReadingSent: 'Test reading sent',
  inactive: 'This device is inactive: switch it to Active before sending a test reading',
  testReadingFailed: 'Failed to send a test reading',
  latestFetchFailed: 'Failed to fetch the latest reading',
  httpSnippetCopied: 'HTTP snippet copied!',
  mqttSnippetCopied: 'MQTT snippet copied!',
} as const;

/**
 * Where a device reaches the MQTT broker: the embedded broker's port on the server's own host
 * (`host` null: the address the admin's browser already uses), or an external broker's host and
 * port. Null when MQTT is off.
 */
export const mqttEndpoint = z.object({ host: z.string().nullable(), port: z.number().int() });
export type MqttEndpoint = z.infer<typeof mqttEndpoint>;

/** `POST /admin/device-latest/:id`: the device's newest reading (or null) and where MQTT listens. */
export const adminDeviceLatestResponse = envelope(
  z.object({ healthData: healthRecord.nullable(), mqtt: mqttEndpoint.nullable() }),
);
export type AdminDeviceLatest = z.infer<typeof adminDeviceLatestResponse>['data'];

/** The reading `POST /admin/test-reading/:id` stored, as a device would have sent it. */
export const testReading = z.object({
  messageId: z.string(),
  spo2: z.number(),
  heartRate: z.number(),
  temperature: z.number(),
  battery: z.number(),
});
export type TestReading = z.infer<typeof testReading>;

export const testReadingResponse = envelope(
  z.object({ accepted: z.number().int(), duplicates: z.number().int(), reading: testReading }),
);
