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

describe('CORS_ORIGINS', () => {
  it('takes comma-separated origins', () => {
    expect(parseEnv({ CORS_ORIGINS: 'https://app.example, http://localhost:5173' }).CORS_ORIGINS).toEqual([
      'https://app.example',
      'http://localhost:5173',
    ]);
    expect(parseEnv({}).CORS_ORIGINS).toEqual([]);
  });

  it.each(['https://app.example/', 'app.example', '*', 'https://app.example/path', 'ftp://app.example'])(
    'refuses %s, which no browser sends as its Origin',
    (value) => {
      expect(() => parseEnv({ CORS_ORIGINS: value })).toThrow('CORS_ORIGINS: each entry must be an origin');
    },
  );
});
