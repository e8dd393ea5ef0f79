import type { EXPORT_FORMATS } from './capability.ts';
import type { FhirResource } from './resources.ts';

/**
 * The text of a `$export` answer, written batch by batch as the resources are read: one
 * collection Bundle (fullUrls under `root`), or one resource per line.
 */
export async function* exportBody(
  format: keyof typeof EXPORT_FORMATS,
  root: string,
  resources: AsyncIterable<FhirResource[]>,
): AsyncGenerator<string> {
  if (format === 'ndjson') {
    for await (const batch of resources) yield batch.map((r) => `${JSON.stringify(r)}\n`).join('');
    return;
  }
  yield `{"resourceType":"Bundle","type":"collection","timestamp":"${new Date().toISOString()}","entry":[`;
  const entry = (r: FhirResource) =>
    JSON.stringify({ fullUrl: `${root}/${r.resourceType}/${r.id}`, resource: r });
  let separator = '';
  for await (const batch of resources) {
    yield separator + batch.map(entry).join(',');
    separator = ',';
  }
  yield ']}';
}
