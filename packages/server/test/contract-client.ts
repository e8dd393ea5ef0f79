import {
  type Contract,
  type ContractInput,
  type ContractResponse,
  type ErrorBody,
  errorBody,
  urlOf,
} from '@vitalwatch/shared';
import type { LightMyRequestResponse } from 'fastify';
import type { z } from 'zod';
import type { BuiltApp } from '../src/app.ts';
import type { TestUser } from './helpers.ts';

type JsonContract = Contract & { response: z.ZodType };

/** A reply whose body was checked: the contract's success schema, or the shared error body. */
export interface CheckedReply<C extends JsonContract> {
  statusCode: number;
  headers: LightMyRequestResponse['headers'];
  /** `success: true` narrows it to the contract's reply, `false` to an error. */
  body: ContractResponse<C> | ErrorBody;
}

/** Input that need not fit the contract (to test its 400s): the reply is checked all the same. */
export interface LooseInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/**
 * A typed client of the contracts for server tests, as `caller` (none: no token): it sends each
 * call through `app.inject` and checks every reply against the endpoint's own response schema
 * (with its success status) or, for a failure, the shared error body; a reply that fits neither
 * fails the test.
 */
export function contractClient(built: BuiltApp, caller?: TestUser) {
  async function send<C extends JsonContract>(contract: C, input: LooseInput): Promise<CheckedReply<C>> {
    const res = await built.app.inject({
      method: contract.method,
      url: `/api/v1${urlOf(contract, input)}`,
      headers: caller?.auth ?? {},
      ...(input.body === undefined ? {} : { payload: input.body as object }),
    });
    const json: unknown = res.json();
    const success = res.statusCode === (contract.status ?? 200);
    const parsed = (success ? contract.response : errorBody).safeParse(json);
    if (!parsed.success) {
      throw new Error(
        `${contract.method} ${contract.path} → ${res.statusCode}: the reply does not fit its schema: ${parsed.error.message}\n${res.body}`,
      );
    }
    return {
      statusCode: res.statusCode,
      headers: res.headers,
      body: json as ContractResponse<C> | ErrorBody,
    };
  }

  return {
    /** A call whose params, query and body are the contract's (a type error otherwise). */
    call: <C extends JsonContract>(contract: C, input: ContractInput<C>) =>
      send(contract, input as LooseInput),
    /** A call with any input (a bad body, a malformed id). */
    callLoose: send,
  };
}

/** The issues of a 400 (none for any other reply). */
export const issuesOf = (reply: CheckedReply<JsonContract>) => {
  const body = reply.body as ErrorBody;
  return body.success === false ? (body.issues ?? []) : [];
};

/** The data of a successful reply; fails the test with the error body otherwise. */
export function dataOf<C extends JsonContract>(reply: CheckedReply<C>): ContractResponse<C> {
  const body = reply.body as { success: boolean; message: string };
  if (!body.success) throw new Error(`expected success, got ${reply.statusCode}: ${body.message}`);
  return reply.body as ContractResponse<C>;
}
