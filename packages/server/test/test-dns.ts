import { isIP } from 'node:net';
import type { HostLookup } from '../src/push-delivery/endpoint-guard.ts';

/** Where names resolve unless a test says otherwise: a public address (example.com's). */
export const PUBLIC_TEST_ADDRESS = '93.184.215.14';

/**
 * Name resolution for tests, which never use the network: a name resolves to the addresses the
 * test gave it, any other name to PUBLIC_TEST_ADDRESS; a name given no addresses does not exist.
 */
export class TestDns {
  private readonly table = new Map<string, string[]>();
  private readonly failures = new Map<string, string>();
  /** Every name looked up, in order. */
  readonly lookups: string[] = [];

  /** From now on `hostname` resolves to these addresses (none: ENOTFOUND). */
  set(hostname: string, ...addresses: string[]): void {
    this.table.set(hostname.toLowerCase(), addresses);
  }

  /** From now on looking `hostname` up fails with this error code (EAI_AGAIN: the resolver cannot answer now). */
  failWith(hostname: string, code: string): void {
    this.failures.set(hostname.toLowerCase(), code);
  }

  readonly lookup: HostLookup = async (hostname) => {
    this.lookups.push(hostname);
    const code = this.failures.get(hostname.toLowerCase());
    if (code) throw Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code });
    const addresses = this.table.get(hostname.toLowerCase()) ?? [PUBLIC_TEST_ADDRESS];
    if (addresses.length === 0) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return addresses.map((address) => ({ address, family: isIP(address) }));
  };
}
