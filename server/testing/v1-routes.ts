import path from 'node:path';

/** The route handler file of a /v1 path template of the OpenAPI document (`/v1/tickets/{ticketId}`). */
export function v1HandlerFile(pathTemplate: string): string {
  const dir = pathTemplate
    .replace(/^\/v1\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((seg) => seg.replace(/^\{(\w+)\}$/, '[$1]'));
  return path.join(process.cwd(), 'app', 'v1', ...dir, 'route.ts');
}
