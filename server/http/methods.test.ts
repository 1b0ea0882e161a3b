import { describe, expect, it } from 'vitest';
import { defineRoute } from '@/server/lib/contract';
import { allowedMethodsFor, compileTemplates } from './methods';
import { z } from 'zod';

const r = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string) =>
  defineRoute({
    method,
    path,
    operationId: `${method}${path}`,
    tag: 't',
    summary: 's',
    auth: 'partner',
    response: z.null(),
  });

describe('405 detection for known /v1 paths', () => {
  const templates = compileTemplates([
    r('GET', '/v1/me'),
    r('PUT', '/v1/tickets/{ticketId}'),
    r('DELETE', '/v1/tickets/{ticketId}'),
    r('GET', '/v1/tickets/batches/{batchId}'),
    r('POST', '/v1/tickets'),
    r('GET', '/v1/channels/listings/{listingId}'),
    r('PUT', '/v1/channels/listings/{listingId}'),
    r('POST', '/v1/channels/listings/bulk'),
  ]);

  it('names the allowed methods when the path exists with other methods', () => {
    expect(allowedMethodsFor(templates, 'POST', '/v1/me')).toEqual(['GET']);
    expect(allowedMethodsFor(templates, 'GET', '/v1/tickets/t-1')).toEqual(['DELETE', 'PUT']);
    expect(allowedMethodsFor(templates, 'GET', '/v1/tickets')).toEqual(['POST']);
    // A literal segment is its own route's alone (Next.js routes it there first), whatever the method.
    expect(allowedMethodsFor(templates, 'GET', '/v1/channels/listings/bulk')).toEqual(['POST']);
    expect(allowedMethodsFor(templates, 'PUT', '/v1/channels/listings/bulk')).toEqual(['POST']);
    expect(allowedMethodsFor(templates, 'GET', '/v1/channels/listings/lst_1')).toBeNull();
  });

  it('does not refuse allowed methods, unknown paths or a path another template serves', () => {
    expect(allowedMethodsFor(templates, 'GET', '/v1/me')).toBeNull();
    expect(allowedMethodsFor(templates, 'GET', '/v1/me/')).toBeNull();
    expect(allowedMethodsFor(templates, 'GET', '/v1/nothing')).toBeNull();
    expect(allowedMethodsFor(templates, 'PUT', '/v1/tickets/a/b')).toBeNull();
    // `/v1/tickets/batches/x` is GET on its own template even though `/v1/tickets/{ticketId}` has no GET.
    expect(allowedMethodsFor(templates, 'GET', '/v1/tickets/batches/b1')).toBeNull();
  });
});
