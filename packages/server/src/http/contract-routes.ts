import type { Auth, Contract, ContractData, ContractRequestShape } from '@vitalwatch/shared';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import type { authGuards } from '../auth/plugin.ts';
import { PrebuiltJson, replyEncoding } from './prebuilt-json.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract a route was registered from (the API document reads its summary and errors). */
    contract?: Contract;
  }
}

/** A success whose envelope `message` is not the contract's own (it depends on what happened). */
export class Said<D> {
  readonly message: string;
  readonly data: D;
  constructor(message: string, data: D) {
    this.message = message;
    this.data = data;
  }
}

/** The reply `data` with `message` in its envelope instead of the contract's. */
export const said = <D>(message: string, data: D): Said<D> => new Said(message, data);

/**
 * The reply's `data` as JSON text already written (by the database), sent inside the envelope as it
 * is: not parsed, checked or serialised again here. Whoever writes it answers for its shape (`D`,
 * the contract's data): its tests check it against the response schema.
 */
export class JsonData<D> {
  readonly json: string;
  /** Never set: ties the text to the data type it stands for. */
  declare readonly data?: D;
  constructor(json: string) {
    this.json = json;
  }
}

/**
 * What a handler returns: the data (the envelope is added once, here), `said(message, data)`, the
 * data as JSON text (`JsonData`), or a `PrebuiltJson` of the whole reply, envelope included (a body
 * built once for many requests); for a contract without the envelope, the reply as it goes.
 */
type Reply<C extends Contract, D = ContractData<C>> = PrebuiltJson | JsonData<D> | DataReply<C, D>;
type DataReply<C extends Contract, D> = C extends { envelope: false }
  ? D
  : [D] extends [undefined]
    ? C extends { message: string }
      ? // biome-ignore lint/suspicious/noConfusingVoidType: a handler with nothing to send returns nothing
        void | Said<undefined>
      : Said<undefined>
    : C extends { message: string }
      ? D | Said<D>
      : Said<D>;

/** A contract's handler: the parsed params, query and body in; for a file (`produces`), the reply it sent. */
export type ContractHandler<C extends Contract> = (
  request: FastifyRequest<ContractRequestShape<C>>,
  reply: FastifyReply,
) => Promise<C['response'] extends object ? Reply<C> : FastifyReply>;

/** What only the server knows of a route: its rate limit, a gate before the handler, a body limit. */
export interface RouteOptions {
  rateLimit?: { max: number; timeWindow: number; keyGenerator?: (request: FastifyRequest) => string };
  preHandler?: preHandlerHookHandler;
  bodyLimit?: number;
}

export type ContractRoute<C extends Contract> =
  | ContractHandler<C>
  | (RouteOptions & { handler: ContractHandler<C> });

/** The onRequest hook of each auth requirement (`public` has none). */
export type AuthHooks = Partial<Record<Exclude<Auth, 'public'>, onRequestHookHandler>>;

/** The hooks of the signed-in requirements, from the auth guards. */
export const userAuthHooks = (guards: ReturnType<typeof authGuards>): AuthHooks => ({
  'signed-in': guards.requireAuth,
  user: guards.requireRole('user'),
  admin: guards.requireRole('admin'),
});

/**
 * Registers one route per contract of `group` (a handler for each, or a type error): the
 * contract's method and path, its params / query / body validated by its schemas (400 with
 * per-field issues), its auth hook, its response schema for the success status, and the
 * `{ success: true, message, data }` envelope around what the handler returns.
 */
export function serveContracts<G extends Record<string, Contract>>(
  app: FastifyInstance,
  hooks: AuthHooks,
  group: G,
  routes: { [K in keyof G]: ContractRoute<G[K]> },
): void {
  for (const [name, contract] of Object.entries(group)) {
    const route = routes[name as keyof G] as ContractRoute<Contract>;
    const { handler, ...options } = typeof route === 'function' ? { handler: route } : route;
    serveOne(app, hooks, contract, handler, options);
  }
}

function serveOne(
  app: FastifyInstance,
  hooks: AuthHooks,
  contract: Contract,
  handler: ContractHandler<Contract>,
  { rateLimit, preHandler, bodyLimit }: RouteOptions,
): void {
  const hook = contract.auth === 'public' ? undefined : hooks[contract.auth];
  if (contract.auth !== 'public' && !hook) throw new Error(`${contract.path}: no hook for ${contract.auth}`);
  const status = contract.status ?? 200;
  const { response } = contract;
  app.route({
    method: contract.method,
    url: contract.path,
    ...(hook ? { onRequest: hook } : {}),
    ...(preHandler ? { preHandler } : {}),
    ...(bodyLimit ? { bodyLimit } : {}),
    schema: {
      ...(contract.params ? { params: contract.params } : {}),
      ...(contract.query ? { querystring: contract.query } : {}),
      ...(contract.body ? { body: contract.body } : {}),
      ...(response ? { response: { [status]: response } } : {}),
    },
    config: { contract, ...(rateLimit ? { rateLimit } : {}) },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const result: unknown = await handler(request as FastifyRequest<ContractRequestShape<Contract>>, reply);
      if (!response) return result;
      if (result instanceof PrebuiltJson) return sendPrebuilt(request, reply.code(status), result);
      reply.code(status);
      if (result instanceof JsonData) {
        reply.type('application/json; charset=utf-8');
        return `{"success":true,"message":${JSON.stringify(contract.message)},"data":${result.json}}`;
      }
      if (contract.envelope === false) return result;
      const { message, data } = result instanceof Said ? result : { message: contract.message, data: result };
      return data === undefined ? { success: true, message } : { success: true, message, data };
    },
  });
}

/** A prebuilt reply, in the encoding the client prefers (so `@fastify/compress` leaves it be). */
async function sendPrebuilt(request: FastifyRequest, reply: FastifyReply, body: PrebuiltJson) {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  const encoding = replyEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(body.json);
  return reply.header('content-encoding', encoding).send(await body.encodedAs(encoding));
}

/** A file as the reply (a contract with `produces`): its media type, downloaded as `filename`. */
export const sendFile = (reply: FastifyReply, type: string, filename: string, body: unknown): FastifyReply =>
  reply
    .header('content-type', type)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(body);
