import { notFoundRoute } from '@/server/http/route';

// Any /v1 path no route file matches: the 404 envelope, whatever the method.
export const GET = notFoundRoute;
export const POST = notFoundRoute;
export const PUT = notFoundRoute;
export const PATCH = notFoundRoute;
export const DELETE = notFoundRoute;
