import { SERVER_MESSAGES } from '@vitalwatch/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { temporarilyUnavailable, tooManyRequests } from '../errors.ts';

/**
 * Limits on the requests that read a lot (CSV and PDF exports, FHIR searches and `$export`,
 * health history), so one user cannot starve everyone: 16 raw CSV exports of one user took
 * another user's history from 8 ms to 2.7 s at the median. Counted per node. Documented in
 * README ("Exports").
 */
export interface HeavyReadLimits {
  /** Heavy requests one user (or, without an account, one address) has running or waiting; more get 429. */
  perUser: number;
  /** Heavy requests running at once on this node; more wait their turn, users taking turns. */
  total: number;
  /** How long a request waits for a turn before it gets 503. */
  queueWaitMs: number;
  /** The Retry-After of both refusals. */
  retryAfterSeconds: number;
}

export const HEAVY_READ_LIMITS: Readonly<HeavyReadLimits> = {
  // Health Trends asks for two histories at once (the whole range and the zoomed window) and
  // Export adds a download: three is the web app at its busiest; more at once is a script.
  perUser: 3,
  // The PostgreSQL pool has 20 connections and a heavy request holds one per query: 16 leave
  // four for sign-ins, ingestion's group commits and alerts even when every slot is busy.
  total: 16,
  // A history waiting behind long exports gets a clear answer instead of a spinner.
  queueWaitMs: 10_000,
  // A CSV page or a history takes well under a second; by then a turn has usually come.
  retryAfterSeconds: 5,
};

interface Waiter {
  grant: () => void;
}

/**
 * Per-user admission and fair turns for heavy requests. A route opts in with one line,
 * `preHandler: ctx.heavyReads.gate`; all such routes of one user share that user's count. The
 * slot is held until the response has been sent (a streamed export: to its last byte) or the
 * client went away.
 */
export class HeavyReads {
  private readonly limits: HeavyReadLimits;
  /** Requests of each key running or waiting. */
  private readonly held = new Map<string, number>();
  /** Waiting requests by key; the Map's order is the turn order (a served key moves to the back). */
  private readonly waiting = new Map<string, Waiter[]>();
  private running = 0;

  constructor(limits: Partial<HeavyReadLimits> = {}) {
    this.limits = { ...HEAVY_READ_LIMITS, ...limits };
  }

  /** Fastify `preHandler`: after sign-in and validation, before the handler reads anything. */
  readonly gate = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const release = await this.acquire(keyOf(request), reply);
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      release();
    };
    // A client gone while it waited: its 'close' has passed already.
    if (reply.raw.destroyed || reply.raw.writableFinished) return end();
    reply.raw.once('finish', end);
    reply.raw.once('close', end);
  };

  /** Heavy requests running now and waiting now, for tests and metrics. */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.waiting.values()) waiting += queue.length;
    return { running: this.running, waiting };
  }

  /**
   * A slot for `key`: at once while fewer than `total` run, else after the keys before it in turn.
   * Resolves to its release; refuses over `perUser` or on waiting too long. Retry-After is set on
   * `reply` here, as not every error handler writes headers (the FHIR routes' does not).
   */
  async acquire(key: string, reply?: FastifyReply): Promise<() => void> {
    const { perUser, total, queueWaitMs, retryAfterSeconds } = this.limits;
    const mine = this.held.get(key) ?? 0;
    if (mine >= perUser) {
      reply?.header('retry-after', String(retryAfterSeconds));
      throw tooManyRequests(SERVER_MESSAGES.heavyReadsPerUser, retryAfterSeconds);
    }
    this.held.set(key, mine + 1);
    const release = () => this.release(key);
    if (this.running < total) {
      this.running++;
      return release;
    }
    const granted = await new Promise<boolean>((resolve) => {
      const waiter: Waiter = { grant: () => resolve(true) };
      const timer = setTimeout(() => {
        this.dropWaiter(key, waiter);
        resolve(false);
      }, queueWaitMs);
      waiter.grant = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiting.set(key, [...(this.waiting.get(key) ?? []), waiter]);
    });
    if (granted) return release;
    this.forget(key);
    reply?.header('retry-after', String(retryAfterSeconds));
    throw temporarilyUnavailable(SERVER_MESSAGES.heavyReadsBusy, retryAfterSeconds);
  }

  /** The slot passes to the first key in turn (which then goes to the back), else is freed. */
  private release(key: string): void {
    this.forget(key);
    const next = this.waiting.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [nextKey, queue] = next.value;
    const waiter = queue.shift()!;
    this.waiting.delete(nextKey);
    if (queue.length > 0) this.waiting.set(nextKey, queue);
    waiter.grant();
  }

  private forget(key: string): void {
    const left = (this.held.get(key) ?? 1) - 1;
    if (left > 0) this.held.set(key, left);
    else this.held.delete(key);
  }

  private dropWaiter(key: string, waiter: Waiter): void {
    const queue = (this.waiting.get(key) ?? []).filter((w) => w !== waiter);
    if (queue.length > 0) this.waiting.set(key, queue);
    else this.waiting.delete(key);
  }
}

/** Whose count a request is on: the signed-in user, else (share links) the client address. */
function keyOf(request: FastifyRequest): string {
  return request.auth ? `user:${request.auth.userId}` : `address:${request.ip}`;
}
