import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  SMS_CODE_ATTEMPTS,
  SMS_CODE_LENGTH,
  SMS_CODE_SENDS,
  SMS_CODE_TTL_MS,
  SMS_MESSAGES,
  type SmsStatus,
} from '@vitalwatch/shared';
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { smsNumbers } from '../db/schema.ts';
import { badRequest, forbidden, temporarilyUnavailable, tooManyRequests } from '../errors.ts';
import type { SmsChannel } from './sms-channel.ts';
import { validTwilioSignature } from './twilio.ts';

/** Replies that opt a number out (Twilio's standard keywords), and that opt it back in. */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const START_WORDS = new Set(['START', 'UNSTOP']);
/** What a caller is told to wait when SMS is not set up or the provider did not answer. */
const RETRY_SECONDS = 60;

/** The channel and the account's auth token (to check inbound signatures); undefined: SMS is not offered. */
export interface SmsSetup {
  channel: SmsChannel;
  authToken: string;
}

/** A person's phone number for alert SMS: set it (a code is sent), verify it, remove it, test it; and STOP/START replies. */
export class SmsService {
  private readonly db: Db;
  private readonly setup: SmsSetup | undefined;
  /** Key of the codes' hashes: a stolen table does not give the codes. */
  private readonly codeKey: string;
  /** Where people (and Twilio) reach this server: the start of the URL inbound requests are signed over. */
  private readonly appUrl: string;

  constructor(db: Db, setup: SmsSetup | undefined, codeKey: string, appUrl: string) {
    this.db = db;
    this.setup = setup;
    this.codeKey = codeKey;
    this.appUrl = appUrl;
  }

  async status(userId: string): Promise<SmsStatus> {
    const [row] = await this.db.select().from(smsNumbers).where(eq(smsNumbers.userId, userId));
    const phone = row?.phone ?? null;
    return {
      configured: this.setup !== undefined,
      phone: phone && mask(phone),
      verified: Boolean(phone && row?.verifiedAt),
      optedOut: phone !== null && this.setup !== undefined && (await this.setup.channel.optedOut(phone)),
      codePending: Boolean(
        phone &&
          row?.codeHash &&
          row.codeExpiresAt &&
          row.codeExpiresAt > new Date() &&
          row.codeAttempts < SMS_CODE_ATTEMPTS,
      ),
    };
  }

  /** Keep the number (not yet verified) and send it a new code: at most SMS_CODE_SENDS an hour. */
  async setNumber(userId: string, phone: string): Promise<SmsStatus> {
    const { channel } = this.configured();
    if (await channel.optedOut(phone))
      throw badRequest(SMS_MESSAGES.optedOut, [{ path: 'phone', message: SMS_MESSAGES.optedOut }]);
    const code = String(randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
    const now = new Date();
    await this.db.transaction(async (tx) => {
      await tx.insert(smsNumbers).values({ userId }).onConflictDoNothing();
      const [row] = await tx.select().from(smsNumbers).where(eq(smsNumbers.userId, userId)).for('update');
      const fresh =
        !row?.sendsWindowStart || now.getTime() - row.sendsWindowStart.getTime() >= SMS_CODE_SENDS.windowMs;
      if (!fresh && row && row.sendsInWindow >= SMS_CODE_SENDS.limit) {
        const waitMs = (row.sendsWindowStart?.getTime() ?? 0) + SMS_CODE_SENDS.windowMs - now.getTime();
        throw tooManyRequests(SMS_MESSAGES.tooManyCodes, Math.ceil(waitMs / 1000));
      }
      await tx
        .update(smsNumbers)
        .set({
          phone,
          verifiedAt: null,
          codeHash: this.hash(userId, code),
          codeExpiresAt: new Date(now.getTime() + SMS_CODE_TTL_MS),
          codeAttempts: 0,
          sendsWindowStart: fresh ? now : row?.sendsWindowStart,
          sendsInWindow: fresh ? 1 : sql`${smsNumbers.sendsInWindow} + 1`,
        })
        .where(eq(smsNumbers.userId, userId));
    });
    const sent = await channel.sendNow(phone, `VitalWatch code: ${code}. It expires in 10 minutes.`);
    if (!sent.accepted)
      throw temporarilyUnavailable(`${SMS_MESSAGES.notSent}: ${sent.detail}`, RETRY_SECONDS);
    return this.status(userId);
  }

  /**
   * Check a code: each try (right or wrong) takes one of SMS_CODE_ATTEMPTS first, in one statement,
   * so guesses sent at once cannot get past the limit; the right code verifies the number.
   */
  async verify(userId: string, code: string): Promise<SmsStatus> {
    this.configured();
    const refuse = (message: string) => badRequest(message, [{ path: 'code', message }]);
    const [row] = await this.db.select().from(smsNumbers).where(eq(smsNumbers.userId, userId));
    if (!row?.phone) throw badRequest(SMS_MESSAGES.noNumber);
    if (!row.codeHash) throw refuse(SMS_MESSAGES.noCode);
    const [taken] = await this.db
      .update(smsNumbers)
      .set({ codeAttempts: sql`${smsNumbers.codeAttempts} + 1` })
      .where(
        and(
          eq(smsNumbers.userId, userId),
          isNotNull(smsNumbers.codeHash),
          lt(smsNumbers.codeAttempts, SMS_CODE_ATTEMPTS),
        ),
      )
      .returning({
        hash: smsNumbers.codeHash,
        expiresAt: smsNumbers.codeExpiresAt,
        attempts: smsNumbers.codeAttempts,
      });
    if (!taken?.hash) throw refuse(SMS_MESSAGES.noAttemptsLeft);
    if (!taken.expiresAt || taken.expiresAt <= new Date()) throw refuse(SMS_MESSAGES.codeExpired);
    if (!timingSafeEqual(Buffer.from(this.hash(userId, code)), Buffer.from(taken.hash))) {
      throw refuse(
        taken.attempts >= SMS_CODE_ATTEMPTS ? SMS_MESSAGES.noAttemptsLeft : SMS_MESSAGES.wrongCode,
      );
    }
    await this.db
      .update(smsNumbers)
      .set({ verifiedAt: new Date(), codeHash: null, codeExpiresAt: null, codeAttempts: 0 })
      .where(eq(smsNumbers.userId, userId));
    return this.status(userId);
  }

  /** Forget the number (the sends window stays, so removing does not reset the limit). */
  async remove(userId: string): Promise<SmsStatus> {
    await this.db
      .update(smsNumbers)
      .set({ phone: null, verifiedAt: null, codeHash: null, codeExpiresAt: null, codeAttempts: 0 })
      .where(eq(smsNumbers.userId, userId));
    return this.status(userId);
  }

  /** Send a test SMS to the verified number and say whether the provider accepted it. */
  async test(userId: string) {
    const { channel } = this.configured();
    const [row] = await this.db.select().from(smsNumbers).where(eq(smsNumbers.userId, userId));
    if (!row?.phone) throw badRequest(SMS_MESSAGES.noNumber);
    if (!row.verifiedAt) throw badRequest(SMS_MESSAGES.notVerified);
    if (await channel.optedOut(row.phone)) throw badRequest(SMS_MESSAGES.optedOut);
    const outcome = await channel.sendNow(
      row.phone,
      'VitalWatch test: alert SMS reach this number. No action needed.',
    );
    return outcome.accepted
      ? { accepted: true, sid: outcome.sid, detail: null }
      : { accepted: false, sid: null, detail: outcome.detail };
  }

  /**
   * A reply to our number, as Twilio forwards it (signed over the address it called, PUBLIC_URL and
   * `path`, and the form fields): STOP words opt the sender's number out, START words back in;
   * anything else is ignored.
   */
  async inbound(path: string, params: Record<string, string>, signature: string | undefined): Promise<void> {
    const setup = this.setup;
    if (!setup) throw temporarilyUnavailable(SMS_MESSAGES.notConfigured, RETRY_SECONDS);
    if (!validTwilioSignature(setup.authToken, `${this.appUrl}${path}`, params, signature))
      throw forbidden(SMS_MESSAGES.badSignature);
    const from = params.From;
    const word = (params.Body ?? '').trim().split(/\s+/)[0]?.toUpperCase() ?? '';
    if (!from) return;
    if (STOP_WORDS.has(word)) await setup.channel.optOut(from);
    else if (START_WORDS.has(word)) await setup.channel.optIn(from);
  }

  private configured(): SmsSetup {
    if (!this.setup) throw temporarilyUnavailable(SMS_MESSAGES.notConfigured, RETRY_SECONDS);
    return this.setup;
  }

  private hash(userId: string, code: string): string {
    return createHmac('sha256', this.codeKey).update(`${userId}:${code}`).digest('base64');
  }
}

/** A number with all but its country prefix and last 4 digits hidden: +14•••••0123. */
export const mask = (phone: string) =>
  `${phone.slice(0, 3)}${'•'.repeat(Math.max(0, phone.length - 7))}${phone.slice(-4)}`;
