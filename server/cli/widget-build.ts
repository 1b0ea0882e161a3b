import { WIDGET_MAX_GZIP_BYTES, widgetBundle } from '@/server/widget/bundle';

/*
 * `npm run build` (and `npm test`'s build) ends here: the widget's script as `/widget/v1.js` serves it,
 * its size printed, and the build failed when it is over its 15 KB gzipped.
 */
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const { bytes, gzipBytes } = await widgetBundle();
const within = gzipBytes <= WIDGET_MAX_GZIP_BYTES;
console.log(
  `widget /widget/v1.js: ${kb(bytes)}, ${kb(gzipBytes)} gzipped (at most ${kb(WIDGET_MAX_GZIP_BYTES)}: ${within ? 'ok' : 'TOO LARGE'})`,
);
process.exit(within ? 0 : 1);
