import type { z } from 'zod';

/**
 * Who may call an endpoint: `public` anyone; `signed-in` any valid access token (any role); `user`
 * and `admin` an access token of that role (403 for the other); `device` a device's `X-Api-Key`.
 */
export type Auth = 'public' | 'signed-in' | 'user' | 'admin' | 'device';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One endpoint, described once: the server registers its route from this (validation, auth hook,
 * envelope, response schema), the web builds its call from it, the API document is made of it.
 */
export interface Contract {
  method: HttpMethod;
  /** Under its base, in Fastify's form: `/health/fetch/:deviceId`. */
  path: string;
  /** Where its path starts: `API_BASE` unless said (FHIR is at `/fhir/R4`). */
  base?: string;
  auth: Auth;
  /** The API document's one-line summary. */
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The whole success reply, envelope included; none for a file (`produces`). */
  response?: z.ZodType;
  /** `false`: the reply is `response` itself, in a format others set (an external broker's hook). */
  envelope?: false;
  /** The success status: 200 unless said. */
  status?: 200 | 201 | 202;
  /** The envelope's `message` unless the handler says another. */
  message?: string;
  /**
   * Error answers its service gives (404 for a record the caller may not see, 409 for a clash,
   * 401 for a refused credential on a public route, 503): those of its auth and input are derived.
   */
  errors?: readonly number[];
  /** The media type of a success that is a file, not JSON. */
  produces?:
    | 'text/csv'
    | 'application/pdf'
    | 'application/zip'
    | 'application/octet-stream'
    | 'application/fhir+json';
}

/** The base of every path whose contract names none. */
export const API_BASE = '/api/v1';

/** A contract's path with its base: `/api/v1/health/fetch/:deviceId`. */
export const fullPathOf = (contract: Pick<Contract, 'base' | 'path'>): string =>
  `${contract.base ?? API_BASE}${contract.path}`;

/** The service error of an endpoint that names a record: 404 when the caller may not see it (or it is gone). */
export const RECORD_ERRORS = [404] as const;

/** A contract as a module writes it: its path below the module's prefix, its auth if not the module's. */
export type ContractSpec = Omit<Contract, 'auth' | 'base'> & { auth?: Auth };

/** The contracts of one module, with their full paths and the module's auth where they state none. */
export type Contracts<A extends Auth, S extends Record<string, ContractSpec>> = {
  [K in keyof S]: Omit<S[K], 'auth'> & { auth: S[K]['auth'] extends Auth ? S[K]['auth'] : A };
};

/**
 * The contracts of one route prefix (`/device`), whose auth is stated once (`user`) and overridden
 * where one differs: `defineContracts('/device', 'user', { list: { method: 'POST', path: '/get-device', … } })`.
 * `base` when the prefix is not under `API_BASE`.
 */
export function defineContracts<A extends Auth, const S extends Record<string, ContractSpec>>(
  prefix: string,
  auth: A,
  specs: S,
  base?: string,
): Contracts<A, S> {
  const entries = Object.entries(specs).map(([name, spec]) => [
    name,
    { ...spec, path: `${prefix}${spec.path}`, auth: spec.auth ?? auth, ...(base ? { base } : {}) },
  ]);
  return Object.fromEntries(entries) as Contracts<A, S>;
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type In<T> = T extends z.ZodType ? z.input<T> : undefined;

/** What a caller sends: the params, query and body its schemas take (each only where it has one). */
export type ContractInput<C extends Contract> = (C['params'] extends z.ZodType
  ? { params: In<C['params']> }
  : unknown) &
  (C['query'] extends z.ZodType ? { query: In<C['query']> } : unknown) &
  (C['body'] extends z.ZodType
    ? undefined extends In<C['body']>
      ? { body?: In<C['body']> }
      : { body: In<C['body']> }
    : unknown);

/** The success reply as parsed by its schema. */
export type ContractResponse<C extends Contract> = Out<C['response']>;

/** What the server's handler returns: the reply's `data` before serialisation (none for a message only). */
export type ContractData<C extends Contract> = C extends { envelope: false }
  ? In<C['response']>
  : In<C['response']> extends infer R
    ? R extends { data: infer D }
      ? D
      : undefined
    : never;

/** The parsed params, query and body a handler receives. */
export interface ContractRequestShape<C extends Contract> {
  Params: Out<C['params']>;
  Querystring: Out<C['query']>;
  Body: Out<C['body']>;
}

/**
 * The URL of a call under `/api/v1`: the path with its `:name` parts filled (encoded), and the
 * query string when there is one.
 */
export function urlOf(
  contract: Pick<Contract, 'path'>,
  input: { params?: unknown; query?: unknown } = {},
): string {
  const params = (input.params ?? {}) as Record<string, string | number>;
  const path = contract.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${contract.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  const query = Object.entries((input.query ?? {}) as Record<string, unknown>).filter(
    ([, value]) => value !== undefined,
  );
  if (query.length === 0) return path;
  const pairs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return `${path}?${pairs.join('&')}`;
}
