import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { BuiltApp } from '../src/app.ts';

export type Document = OpenAPIV3_1.Document;
type Response = OpenAPIV3_1.ResponseObject;

/** The OpenAPI document as a client gets it: GET /api/v1/openapi.json of the running app. */
export async function fetchDocument(built: BuiltApp): Promise<Document> {
  const res = await built.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`openapi.json: ${res.statusCode}`);
  return res.json<Document>();
}

/** Every operation: its method (upper case), its OpenAPI path and the operation object. */
export function operationsOf(document: Document) {
  const found: { method: string; path: string; operation: OpenAPIV3_1.OperationObject }[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item?.[method];
      if (operation) found.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return found;
}

/**
 * Checks real answers against the document: `check(method, path, status, contentType, body)`
 * says what is wrong (undocumented status, media type or a body off its schema), or nothing.
 */
export function responseChecker(document: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document as object, 'openapi.json');
  const inDocument = (schema: unknown) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'));

  return (method: string, path: string, status: number, contentType: string | undefined, body: string) => {
    const operation = document.paths?.[path]?.[method.toLowerCase() as 'get'];
    if (!operation) return `${method} ${path} is not documented`;
    let response = operation.responses?.[status] as Response | OpenAPIV3_1.ReferenceObject | undefined;
    if (response && '$ref' in response) {
      const name = response.$ref.replace('#/components/responses/', '');
      response = document.components?.responses?.[name] as Response | undefined;
    }
    if (!response) return `${method} ${path} answered ${status}, which is not documented`;
    if (!response.content) return undefined;
    const media = contentType?.split(';')[0]?.trim() ?? '';
    const documented = response.content[media];
    if (!documented)
      return `${method} ${path} ${status} answered ${media}, documented: ${Object.keys(response.content)}`;
    if (!documented.schema || !media.endsWith('json')) return undefined;
    const validate = ajv.compile(inDocument(documented.schema));
    if (validate(JSON.parse(body))) return undefined;
    return `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)} in ${body.slice(0, 300)}`;
  };
}
