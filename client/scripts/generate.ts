/**
 * `npm run client:generate`: the partner client's types, from the OpenAPI document the server serves at
 * `/v1/openapi.json`, built in this process from the same route contracts (no server running). Writes
 * `client/src/generated/openapi.json` (the document) and `client/src/generated/encore-api.ts` (its types,
 * by openapi-typescript). Both are generated on every build and never committed: they cannot go stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { buildOpenApiDocument } from '@/server/http/openapi';
import { allRoutes } from '@/server/http/registry';

const started = Date.now();
const out = new URL('../src/generated/', import.meta.url);
const document = buildOpenApiDocument(allRoutes);
const json = JSON.stringify(document, null, 2);
const types = astToString(await openapiTS(JSON.parse(json), { silent: true }));

mkdirSync(out, { recursive: true });
writeFileSync(new URL('openapi.json', out), `${json}\n`);
writeFileSync(new URL('encore-api.ts', out), `${COMMENT_HEADER}${types}`);
// On stderr: `npm pack --json` in client/ runs this (prepack) and its stdout must stay JSON.
console.error(
  `client:generate: ${Object.keys(document.paths).length} paths → client/src/generated/encore-api.ts (${Date.now() - started} ms)`,
);
