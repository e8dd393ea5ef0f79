import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

/** Twilio's REST API, unless TWILIO_API_URL points elsewhere (a Twilio-compatible service, or a test's). */
export const TWILIO_API_URL = 'https://api.twilio.com';
/** Twilio's error code for a number that replied STOP: it may not be sent to until it replies START. */
export const TWILIO_UNSUBSCRIBED = 21610;

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or a Messaging Service SID. */
  from: string;
  /** Origin of the API, no trailing slash. */
  apiUrl: string;
}

/** What a provider said to one message. */
export type SmsOutcome =
  | { accepted: true; sid: string }
  | {
      accepted: false;
      /** The HTTP status, or null when no answer came (refused, timed out). */
      status: number | null;
      /** The provider's own error code, when it gave one. */
      code: number | null;
      detail: string;
    };

/**
 * One way to send an SMS. Twilio is the one built in; another provider is a class with this method
 * (and its configuration), built in `composeServices` instead of `TwilioSender`.
 */
export interface SmsSender {
  send(to: string, body: string): Promise<SmsOutcome>;
}

export interface TwilioSenderOptions {
  /** Longest the API may take to answer. */
  requestTimeoutMs: number;
  /** Certificate authorities to trust instead of the system's (tests trust their local API). */
  ca: string | undefined;
}

const DEFAULTS: TwilioSenderOptions = { requestTimeoutMs: 10_000, ca: undefined };
/** Characters of an error answer kept. */
const DETAIL_KEPT = 300;

/** Sends through Twilio's Messages API: a form POST with Basic auth, never without a time-out. */
export class TwilioSender implements SmsSender {
  readonly options: TwilioSenderOptions;
  private readonly config: TwilioConfig;

  constructor(config: TwilioConfig, options: Partial<TwilioSenderOptions> = {}) {
    this.config = config;
    this.options = { ...DEFAULTS, ...options };
  }

  /** Never throws: a refusal, a time-out or a network error is an outcome. */
  send(to: string, body: string): Promise<SmsOutcome> {
    const { accountSid, authToken, from, apiUrl } = this.config;
    const url = new URL(`${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`);
    const form = new URLSearchParams({ To: to, From: from, Body: body }).toString();
    const client = url.protocol === 'http:' ? http : https;
    return new Promise<SmsOutcome>((resolve) => {
      const request = client.request(
        url,
        {
          method: 'POST',
          timeout: this.options.requestTimeoutMs,
          ...(this.options.ca === undefined ? {} : { ca: this.options.ca }),
          headers: {
            authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
            'user-agent': 'VitalWatch-SMS/1',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve(outcomeOf(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))),
          );
          res.on('error', (err) =>
            resolve({ accepted: false, status: res.statusCode ?? null, code: null, detail: err.message }),
          );
        },
      );
      request.on('timeout', () =>
        request.destroy(new Error(`no answer within ${this.options.requestTimeoutMs} ms`)),
      );
      request.on('error', (err) =>
        resolve({ accepted: false, status: null, code: null, detail: err.message }),
      );
      request.end(form);
    });
  }
}

function outcomeOf(status: number, text: string): SmsOutcome {
  let answer: { sid?: unknown; code?: unknown; message?: unknown } = {};
  try {
    answer = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  if (status >= 200 && status < 300 && typeof answer.sid === 'string')
    return { accepted: true, sid: answer.sid };
  const code = typeof answer.code === 'number' ? answer.code : null;
  const message = typeof answer.message === 'string' ? answer.message : text.slice(0, DETAIL_KEPT);
  return {
    accepted: false,
    status,
    code,
    detail: `SMS provider answered ${status}${code ? ` (${code})` : ''}: ${message}`,
  };
}

/**
 * Twilio's request signature: base64 HMAC-SHA1, keyed by the auth token, of the full URL it called
 * followed by each POST parameter's name and value, sorted by name.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Whether a request carries Twilio's signature for this URL and these parameters. */
export function validTwilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>,
  given: string | undefined,
): boolean {
  if (!given) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
