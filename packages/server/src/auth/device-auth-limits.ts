/**
 * Limits on failed device authentication (MQTT CONNECT, the external broker's auth hook, HTTP
 * `X-Api-Key`). A device's code is 256 random bits, so these are not what stops guessing; they
 * stop floods of failing attempts (each costs a database lookup) and lock an id whose code is
 * being tried. A clinic gateway may put hundreds of devices behind one address, hence the
 * generous per-address numbers. Documented in README ("Devices: HTTP and MQTT").
 */
export interface DeviceAuthLimits {
  /** Wrong codes for one device id inside `deviceWindowMs` before the id is refused, even with the right code. */
  failuresPerDevice: number;
  deviceWindowMs: number;
  /**
   * Failures from one address inside `ipWindowMs`, counted apart for MQTT and HTTP. MQTT: every
   * CONNECT from it is then refused. HTTP: unknown `X-Api-Key`s get 429; a valid key always passes.
   */
  failuresPerIp: number;
  ipWindowMs: number;
  /** Open connections to the embedded broker from one address; more are dropped at once. */
  mqttConnectionsPerIp: number;
}

export const DEVICE_AUTH_LIMITS: Readonly<DeviceAuthLimits> = {
  // As for logins: a device retrying an old code every second is locked after 10 s.
  failuresPerDevice: 10,
  deviceWindowMs: 15 * 60_000,
  // 5 a second, as for logins. Attempts refused by the id lock are not counted here, so a
  // misconfigured device adds at most 10 per 15 minutes: dozens of them behind one gateway,
  // failing at the same moment, stay below it.
  failuresPerIp: 300,
  ipWindowMs: 60_000,
  mqttConnectionsPerIp: 1000,
};

/** The defaults with a configuration's overrides (tests lower them). */
export const deviceAuthLimits = (overrides: Partial<DeviceAuthLimits> = {}): DeviceAuthLimits => ({
  ...DEVICE_AUTH_LIMITS,
  ...overrides,
});
