/**
 * Limits on failed device authentication (MQTT CONNECT, the external broker's auth hook, HTTP
 * `X-Api-Key`). A device's code is 256 random bits, so none of them is what stops guessing, and
 * none may keep a device with its right code out: lives may depend on its alerts getting through.
 * - Per device id, wrong codes are only counted, to report an id they keep coming for. An id is
 *   no secret, so refusing it would let anyone lock a real device out.
 * - Per address (an IPv6 address by its /64), the embedded broker stops floods of failing
 *   CONNECTs from costing a database lookup each: a blocked address's CONNECTs are refused before
 *   the lookup, except those with an id and code that logged in on this node before.
 * - Per address, HTTP answers bad keys with 429 once there were too many, and logs it: a signal
 *   to back off, not a saving. Every key is looked up first, so a valid one always passes and a
 *   flood of well-formed unknown keys still costs one indexed lookup each (malformed keys none).
 * A clinic gateway may put hundreds of devices behind one address, and a device with a wrong code
 * (or none, or a username that is no device id) may retry every second, hence the generous
 * per-address numbers. Documented in README ("Devices: HTTP and MQTT").
 */
export interface DeviceAuthLimits {
  /** Wrong codes for one device id inside `deviceWindowMs` before it is reported (never refused). */
  failuresPerDevice: number;
  deviceWindowMs: number;
  /**
   * Failures from one address inside `ipWindowMs`, counted apart for MQTT and HTTP. MQTT: CONNECTs
   * from it are then refused, unless their credentials logged in before. HTTP: unknown
   * `X-Api-Key`s get 429 instead of 401; a valid key always passes.
   */
  failuresPerIp: number;
  ipWindowMs: number;
  /** Open connections to the embedded broker from one address; more are dropped at once. */
  mqttConnectionsPerIp: number;
}

export const DEVICE_AUTH_LIMITS: Readonly<DeviceAuthLimits> = {
  // A device retrying an old code every second is reported after 10 s.
  failuresPerDevice: 10,
  deviceWindowMs: 15 * 60_000,
  // 5 a second. A misconfigured device adds one per retry, so a few of them behind one gateway
  // can reach it; then only the devices that logged in before get in until the flood stops.
  failuresPerIp: 300,
  ipWindowMs: 60_000,
  mqttConnectionsPerIp: 1000,
};

/** The defaults with a configuration's overrides (tests lower them). */
export const deviceAuthLimits = (overrides: Partial<DeviceAuthLimits> = {}): DeviceAuthLimits => ({
  ...DEVICE_AUTH_LIMITS,
  ...overrides,
});
