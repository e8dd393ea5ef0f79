import type { Auth, Contract, ContractInput, ContractResponse } from '@vitalwatch/shared';
import { urlOf } from '@vitalwatch/shared';
import type { z } from 'zod';
import type { AuthMode } from '../api-client.ts';
import type { ApiCall } from './api.ts';

/** A contract whose success is JSON (not a file): what the web calls through the API client. */
export type JsonContract = Contract & { response: z.ZodType };

/** How the client authenticates a contract's call: an admin's waits briefly for the token. */
export const authModeOf = (auth: Auth): AuthMode => {
  if (auth === 'public') return 'none';
  return auth === 'admin' ? 'admin' : 'user';
};

/** The client's call of `contract`: its URL with params and query, its method, body, auth and reply schema. */
export function callOf<C extends JsonContract>(
  contract: C,
  input: ContractInput<C>,
): ApiCall<ContractResponse<C>> {
  const { body } = input as { body?: unknown };
  return {
    path: urlOf(contract, input as { params?: unknown; query?: unknown }),
    method: contract.method,
    body,
    schema: contract.response as z.ZodType<ContractResponse<C>>,
    auth: authModeOf(contract.auth),
  };
}

/**
 * An RTK Query endpoint's `query` and `transformResponse` from a contract: `input` turns the
 * endpoint's argument into the contract's params / query / body, `pick` takes what the store keeps
 * from the reply (parsed by the contract's schema). Spread into `build.query` / `build.mutation`.
 */
export function fromContract<C extends JsonContract, Arg, Result>(
  contract: C,
  input: (arg: Arg) => ContractInput<C>,
  pick: (response: ContractResponse<C>) => Result,
) {
  return {
    query: (arg: Arg) => callOf(contract, input(arg)),
    // The client parsed the reply with this contract's schema (`callOf`).
    transformResponse: (response: unknown) => pick(response as ContractResponse<C>),
  };
}
