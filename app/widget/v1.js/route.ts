import { widgetBundle } from '@/server/widget/bundle';

/**
 * The drop-in widget's script: loaded by partners' pages from their own origin, so it may be
 * fetched from anywhere; kept 5 minutes by browsers and caches (a fix reaches pages within that), its
 * address versioned (`v1`) for changes a page would notice.
 */
export async function GET(): Promise<Response> {
  const { code } = await widgetBundle();
  return new Response(code, {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=300, stale-while-revalidate=3600',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    },
  });
}
