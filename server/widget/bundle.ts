import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The widget's script may be at most this many bytes gzipped: 15 KB. */
export const WIDGET_MAX_GZIP_BYTES = 15 * 1024;

export interface WidgetBundle {
  code: string;
  bytes: number;
  gzipBytes: number;
}

/**
 * `/widget/v1.js`: components/widget bundled into one minified script (an IIFE for browsers of the last
 * few years: custom elements, shadow DOM, constructed stylesheets). Made once per process, from the sources
 * the server runs with, so what `npm run build` prints is what is served.
 */
export function widgetBundle(): Promise<WidgetBundle> {
  const store = globalThis as typeof globalThis & { __encoreWidget?: Promise<WidgetBundle> };
  store.__encoreWidget ??= bundle().catch((err: unknown) => {
    store.__encoreWidget = undefined;
    throw err;
  });
  return store.__encoreWidget;
}

async function bundle(): Promise<WidgetBundle> {
  const result = await build({
    entryPoints: [path.join(process.cwd(), 'components/widget/index.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari16'],
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length };
}
