import { CLIENT_TARBALL, clientPackage } from '@/server/http/client-package';

/**
 * Public, like /docs: the partner client's package for `npm install <this address>`
 * (server/http/client-package.ts). `encore-partner-client.tgz` is this build's; the versioned name
 * (`encore-partner-client-<version>.tgz`) never changes its bytes, so caches keep it.
 */
export function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  return params.then(({ file }) => {
    const built = clientPackage();
    const named = built && (file === CLIENT_TARBALL || file === built.filename);
    if (!built || !named) {
      const message = built
        ? `No download named ${file}: the partner client is ${CLIENT_TARBALL} or ${built.filename}.`
        : 'The partner client is not built on this server (npm run build builds it).';
      return Response.json({ status: 404, data: null, errors: { message, code: 'NOT_FOUND' } }, { status: 404 });
    }
    return new Response(new Uint8Array(built.tarball), {
      headers: {
        'content-type': 'application/gzip',
        'content-disposition': `attachment; filename="${built.filename}"`,
        'cache-control':
          file === built.filename ? 'public, max-age=31536000, immutable' : 'public, max-age=300, must-revalidate',
        'access-control-allow-origin': '*',
      },
    });
  });
}
