import { lookup as dnsLookup } from 'node:dns/promises';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { PUSH_ENDPOINT_ISSUES, type PushEndpointIssue, SERVER_MESSAGES } from '@vitalwatch/shared';
import { badRequest, type DomainError, temporarilyUnavailable } from '../errors.ts';
import { withTimeout } from '../lib/time-limit.ts';
import { isPublicAddress } from './public-address.ts';

/** The push services browsers subscribe with; `*.` allows any name under that domain. */
export const KNOWN_PUSH_SERVICE_HOSTS: readonly string[] = [
  'fcm.googleapis.com', // Chrome and the other Chromium browsers but Edge
  'updates.push.services.mozilla.com', // Firefox
  '*.push.apple.com', // Safari (web.push.apple.com)
  '*.notify.windows.com', // Edge (wns2-….notify.windows.com)
];

/** Which push service endpoints the server accepts and connects to. */
export interface PushEndpointPolicy {
  /** Host names subscriptions may point at (`*.domain`: any name under it); `'any'`: any public host. */
  allowedHosts: readonly string[] | 'any';
  /**
   * Tests only (a local push service on 127.0.0.1): hosts, by name or address, to which no rule
   * applies but https without credentials. The configuration refuses it outside NODE_ENV=test.
   */
  testOnlyHosts: readonly string[];
}

export const DEFAULT_PUSH_ENDPOINT_POLICY: PushEndpointPolicy = {
  allowedHosts: KNOWN_PUSH_SERVICE_HOSTS,
  testOnlyHosts: [],
};

/** Name resolution: `dns.lookup` (the system resolver) unless a test answers from a table. */
export type HostLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A push endpoint the server will not connect to: permanent, like a subscription the push service calls gone. */
export class RefusedPushEndpointError extends Error {
  readonly issue: PushEndpointIssue;

  constructor(issue: PushEndpointIssue, host: string) {
    super(`push endpoint refused (${issue}): ${host}`);
    this.issue = issue;
    this.name = 'RefusedPushEndpointError';
  }
}

/** Names that only mean something inside a network (RFC 6761, 6762 appendix G, 8375), besides one-label names. */
const LOCAL_SUFFIXES = [
  '.localhost',
  '.localdomain',
  '.local',
  '.internal',
  '.intranet',
  '.private',
  '.corp',
  '.home',
  '.lan',
  '.home.arpa',
];
const DNS_TIMEOUT_MS = 5_000;
const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'ENODATA']);

/** A host as compared here: no IPv6 brackets, no trailing dot, lower case. */
const normalHost = (host: string) =>
  host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();

/**
 * Keeps the server from being aimed at its own network through a push subscription (blind SSRF):
 * checks an endpoint when a browser subscribes, and guards every connection made to send a push,
 * since what a name resolves to may change after it was checked (DNS rebinding).
 */
export class PushEndpointGuard {
  private readonly policy: PushEndpointPolicy;
  private readonly lookup: HostLookup;

  constructor(policy: PushEndpointPolicy = DEFAULT_PUSH_ENDPOINT_POLICY, lookup: HostLookup = systemLookup) {
    this.policy = policy;
    this.lookup = lookup;
  }

  /** Subscription time: throws a 400 naming the rule `endpoint` breaks (or a 503 when DNS cannot answer now). */
  async check(endpoint: string): Promise<void> {
    const issue = this.urlIssue(endpoint) ?? (await this.addressIssue(new URL(endpoint).hostname));
    if (issue) throw endpointRefused(issue);
  }

  /** The rule the URL itself breaks (scheme, credentials, port, host), before any name is resolved. */
  urlIssue(endpoint: string): PushEndpointIssue | undefined {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return 'notHttps';
    }
    if (url.protocol !== 'https:') return 'notHttps';
    if (url.username || url.password) return 'credentials';
    return this.hostIssue(url.hostname, url.port);
  }

  /** The rule a host and port break: the port, an IP address, a local name, a host off the allow-list. */
  hostIssue(host: string, port: string | number | null | undefined): PushEndpointIssue | undefined {
    const name = normalHost(host);
    if (this.isTestOnly(name)) return undefined;
    if (port !== undefined && port !== null && port !== '' && Number(port) !== 443) return 'port';
    if (isIP(name) !== 0) return 'ipAddress';
    if (name === 'localhost' || !name.includes('.') || LOCAL_SUFFIXES.some((s) => name.endsWith(s)))
      return 'localHost';
    const { allowedHosts } = this.policy;
    const allowed =
      allowedHosts === 'any' ||
      allowedHosts.some((entry) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : name === entry));
    return allowed ? undefined : 'notPushService';
  }

  /**
   * An agent for sending pushes that connects only to hosts `hostIssue` accepts, and only to their
   * public addresses: every new connection resolves the name again and filters what it gets.
   */
  agent(options: https.AgentOptions = {}): https.Agent {
    return new GuardedAgent(this, { keepAlive: true, ...options, lookup: this.connectLookup });
  }

  /** Every address must be public: a name that also points inside the network is refused. */
  private async addressIssue(host: string): Promise<PushEndpointIssue | undefined> {
    const name = normalHost(host);
    // Addresses were judged as such by the URL rules; test-only hosts are exempt.
    if (isIP(name) !== 0 || this.isTestOnly(name)) return undefined;
    let found: Awaited<ReturnType<HostLookup>>;
    try {
      found = await withTimeout(this.lookup(name), DNS_TIMEOUT_MS, `DNS lookup of ${name}`);
    } catch (err) {
      if (NOT_FOUND_CODES.has(String((err as NodeJS.ErrnoException).code))) return 'notFound';
      throw temporarilyUnavailable(SERVER_MESSAGES.pushEndpointCheckFailed, 5);
    }
    if (found.length === 0) return 'notFound';
    return found.every((a) => isPublicAddress(a.address)) ? undefined : 'privateAddress';
  }

  /** `net.connect`'s lookup: resolves as usual, then keeps only the addresses the server may reach. */
  readonly connectLookup: LookupFunction = (hostname, options, callback) => {
    const name = normalHost(hostname);
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    this.lookup(name).then(
      (found) => {
        const candidates = found.filter((a) => family === 0 || a.family === family);
        const usable = this.isTestOnly(name)
          ? candidates
          : candidates.filter((a) => isPublicAddress(a.address));
        const [first] = usable;
        if (!first) {
          // It resolves, but only inside the network: rebound since it was checked, or never public.
          const refused = candidates.length > 0;
          callback(
            refused ? new RefusedPushEndpointError('privateAddress', hostname) : notFound(hostname),
            '',
          );
        } else if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };

  private isTestOnly(name: string): boolean {
    return this.policy.testOnlyHosts.some((host) => normalHost(host) === name);
  }
}

/** Refuses, before connecting, a host the guard does not accept, whatever parsed the URL. */
class GuardedAgent extends https.Agent {
  private readonly guard: PushEndpointGuard;

  constructor(guard: PushEndpointGuard, options: https.AgentOptions) {
    super(options);
    this.guard = guard;
  }

  /** Throws (out of `https.request`, so the send rejects) for a host the guard refuses. */
  override createConnection(
    options: https.RequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const host = options.host ?? options.hostname ?? '';
    const issue = this.guard.hostIssue(host, options.port);
    // An IP address is connected to without a lookup, so this is where it is stopped.
    if (issue) throw new RefusedPushEndpointError(issue, host);
    return super.createConnection(options, callback);
  }
}

/** The 400 of a refused endpoint: the message, and the same as the issue of `fcmToken.endpoint`. */
const endpointRefused = (issue: PushEndpointIssue): DomainError =>
  badRequest(PUSH_ENDPOINT_ISSUES[issue], [
    { path: 'fcmToken.endpoint', message: PUSH_ENDPOINT_ISSUES[issue] },
  ]);

const notFound = (hostname: string) =>
  Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
