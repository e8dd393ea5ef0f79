/**
 * What a device sends, as commands the admin can paste into a terminal (or read to set a device
 * up): one normal reading over HTTP with curl and over MQTT with mosquitto_pub. The values are
 * inside the spec's normal ranges, so running one raises no alert.
 */
export const SAMPLE_READING = '{"spo2":97,"heartRate":72,"temperature":98.1,"battery":80}';

/** `curl` posting the sample reading to this server with the device's API auth code. */
export function curlSnippet(origin: string, apiAuthCode: string): string {
  return [
    `curl -X POST '${origin}/api/v1/ingest/health' \\`,
    `  -H 'X-Api-Key: ${apiAuthCode}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${SAMPLE_READING}'`,
  ].join('\n');
}

/** `mosquitto_pub` publishing the sample reading at QoS 1: username the device id, password its code. */
export function mosquittoSnippet(host: string, port: number, deviceId: string, apiAuthCode: string): string {
  return [
    `mosquitto_pub -h '${host}' -p ${port} -q 1 \\`,
    `  -u '${deviceId}' -P '${apiAuthCode}' \\`,
    `  -t 'devices/${deviceId}/health' \\`,
    `  -m '${SAMPLE_READING}'`,
  ].join('\n');
}

/** The snippet as shown on screen: the code masked (copying gives the real one). */
export const masked = (snippet: string, apiAuthCode: string) =>
  snippet.replaceAll(apiAuthCode, '•'.repeat(12));
