import type { Contract, ContractInput, ContractResponse } from '@vitalwatch/shared';
import { urlOf } from '@vitalwatch/shared';
import { apiRequest, downloadFile } from './api-client.ts';
import type { SentRequest } from './api-send.ts';
import { callOf, type JsonContract } from './store/contract-query.ts';

/** Calls `contract` outside the store; `sent` when the same request already left (`sendEarly`). */
export function callContract<C extends JsonContract>(
  contract: C,
  input: ContractInput<C>,
  options: { signal?: AbortSignal; sent?: SentRequest; endsSession?: boolean } = {},
): Promise<ContractResponse<C>> {
  const { path, ...call } = callOf(contract, input);
  return apiRequest(path, { ...call, ...options });
}

/** Downloads the file a contract with `produces` answers (an export, a share link's report). */
export function downloadContract<C extends Contract & { produces: string }>(
  contract: C,
  input: ContractInput<C>,
) {
  const url = urlOf(contract, input as { params?: unknown; query?: unknown });
  return downloadFile(url, contract.auth === 'public' ? 'none' : 'user');
}
