import { DEVICE_MESSAGES } from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { type FailureThrottle, sharedFailureThrottle } from '../../auth/failure-throttle.ts';
import { tooManyRequests } from '../../errors.ts';

/**
 * Wrong activation codes allowed inside `windowMs`. A code (31^8 ≈ 8.5e11) is typed from a label,
 * so a person mistypes a few at most; a script guessing them would otherwise try hundreds a second
 * from one account. Per address (an IPv6 one by its /64) a little more, for a clinic behind one
 * NAT adding devices for many people.
 */
export const ACTIVATION_LIMITS = { perAccount: 10, perAddress: 30, windowMs: 15 * 60_000 } as const;

/** Who is typing a code: the signed-in account and the client's address key (auth/address-key.ts). */
export interface ActivationCaller {
  userId: string;
  address: string;
}

/** Counts wrong activation codes per account and per address; past either limit, 429 for a while. */
export class ActivationAttempts {
  private readonly perAccount: FailureThrottle;
  private readonly perAddress: FailureThrottle;

  constructor(perAccount: FailureThrottle, perAddress: FailureThrottle) {
    this.perAccount = perAccount;
    this.perAddress = perAddress;
  }

  /** Counted in Redis when the app has one, so every server process keeps the same limits. */
  static shared(redis: Redis | undefined, log: FastifyBaseLogger): ActivationAttempts {
    const { perAccount, perAddress, windowMs } = ACTIVATION_LIMITS;
    return new ActivationAttempts(
      sharedFailureThrottle(redis, 'activation-fail-account', { limit: perAccount, windowMs }, log),
      sharedFailureThrottle(redis, 'activation-fail-address', { limit: perAddress, windowMs }, log),
    );
  }

  /** 429 with the longer of the two waits while the account or the address is blocked. */
  async assertAllowed({ userId, address }: ActivationCaller): Promise<void> {
    const waits = await Promise.all([
      this.perAccount.blockedFor(userId),
      this.perAddress.blockedFor(address),
    ]);
    const retryAfter = Math.max(...waits);
    if (retryAfter > 0) throw tooManyRequests(DEVICE_MESSAGES.tooManyActivationCodes, retryAfter);
  }

  /** A code that matched no device. */
  async failed({ userId, address }: ActivationCaller): Promise<void> {
    await Promise.all([this.perAccount.fail(userId), this.perAddress.fail(address)]);
  }
}
