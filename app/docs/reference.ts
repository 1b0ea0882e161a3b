import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from '@/server/http/openapi';
import { allRoutes } from '@/server/http/registry';
import type { Operation, Schema } from './operation';
import type { IndexGroup } from './operation-search';

/** One operation of the document, where it sits (method and path) and its tag's page anchor. */
interface OperationEntry {
  path: string;
  method: string;
  op: Operation;
  tag: string;
  tagSlug: string;
}

interface ErrorResponse {
  description: string;
  content: { 'application/json': { example: unknown } };
}

/** What the reference's pages read: the document, its operations in reading order, grouped by tag. */
interface Reference {
  doc: ReturnType<typeof buildOpenApiDocument>;
  components: Record<string, Schema>;
  errorResponses: Record<string, ErrorResponse>;
  /** Grouped by tag (in order of first appearance), in the registry's order within a tag: integration order. */
  ops: OperationEntry[];
  /** The index the overview and every page's menu draw: a few strings per operation. */
  groups: IndexGroup[];
  /** The quick start's source, as e2e/typed-client.spec.ts type-checks and runs it against the API. */
  quickStart: string;
  /** The project around it, the files that test writes as they are: its package.json and tsconfig.json. */
  quickStartProject: { packageJson: string; tsconfig: string };
}

/** `Build your own buying flow` → `build-your-own-buying-flow`: a tag's anchor on the overview. */
const tagSlug = (tag: string) =>
  tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function build(): Reference {
  const doc = buildOpenApiDocument(allRoutes);
  const all = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, op]) => ({
      path,
      method: method.toUpperCase(),
      op,
      tag: op.tags[0],
      tagSlug: tagSlug(op.tags[0]),
    })),
  );
  const tags = [...new Set(all.map((o) => o.tag))];
  const ops = tags.flatMap((tag) => all.filter((o) => o.tag === tag));
  return {
    doc,
    components: doc.components.schemas as Record<string, Schema>,
    errorResponses: doc.components.responses as Record<string, ErrorResponse>,
    ops,
    groups: tags.map((tag) => ({
      tag,
      slug: tagSlug(tag),
      ops: ops
        .filter((o) => o.tag === tag)
        .map((o) => ({ id: o.op.operationId, method: o.method, path: o.path, summary: o.op.summary })),
    })),
    quickStart: quickStartFile('partner-integration.ts'),
    quickStartProject: { packageJson: quickStartFile('package.json'), tsconfig: quickStartFile('tsconfig.json') },
  };
}

function quickStartFile(name: string): string {
  return readFileSync(path.join(process.cwd(), 'docs/quick-start', name), 'utf8');
}

let built: Reference | undefined;

/**
 * The reference, built once per process: the document depends only on the route registry and the
 * configured base URL, neither of which changes while the process runs, so each page view only renders.
 */
export function docsReference(): Reference {
  built ??= build();
  return built;
}
