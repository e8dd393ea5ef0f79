import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '../src/config.ts';

describe('port variables', () => {
  it.each(['PORT', 'MQTT_PORT'])('%s set but empty stops start-up instead of meaning port 0', (name) => {
    expect(() => parseEnv({ [name]: '' })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: '' })).toThrow(`${name}: must be a port number from 0 to 65535`);
  });

  it.each(['abc', '-1', '3.5', '65536', '1e3'])('PORT=%s is refused with the same message', (value) => {
    expect(() => parseEnv({ PORT: value })).toThrow('PORT: must be a port number from 0 to 65535');
  });

  it('takes digits, and the defaults when unset', () => {
    expect(parseEnv({ PORT: ' 8080 ', MQTT_PORT: '0' })).toMatchObject({ PORT: 8080, MQTT_PORT: 0 });
    const defaults = parseEnv({});
    expect(defaults.PORT).toBe(3000);
    expect(defaults.MQTT_PORT).toBeUndefined();
  });
});
