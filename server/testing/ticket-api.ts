// Calls to the ticket routes as a partner makes them, answered as `{ status, body }` (tests only).
import { POST as syncPost } from '@/app/v1/sync/tickets/route';
import { POST as admitBatch } from '@/app/v1/tickets/batch/eventAdmission/route';
import { POST as admitOne } from '@/app/v1/tickets/[ticketId]/eventAdmission/route';
import { DELETE as del, PUT as put } from '@/app/v1/tickets/[ticketId]/route';
import { POST as ticketsPost } from '@/app/v1/tickets/route';
import { apiRequest, routeParams } from './fixtures';

export const json = async (res: Response) => ({ status: res.status, body: await res.json() });

export const syncTickets = (key: string, body: unknown) =>
  syncPost(apiRequest('/v1/sync/tickets', { key, body })).then(json);
export const queueTickets = (key: string, body: unknown) =>
  ticketsPost(apiRequest('/v1/tickets', { key, body })).then(json);
export const putTicket = (key: string, ticketId: string, body: unknown) =>
  put(apiRequest(`/v1/tickets/${ticketId}`, { method: 'PUT', key, body }), routeParams({ ticketId })).then(json);
export const deleteTicket = (key: string, ticketId: string) =>
  del(apiRequest(`/v1/tickets/${ticketId}`, { method: 'DELETE', key }), routeParams({ ticketId })).then(json);
export const admit = (key: string, ticketId: string) =>
  admitOne(
    apiRequest(`/v1/tickets/${ticketId}/eventAdmission`, { method: 'POST', key }),
    routeParams({ ticketId }),
  ).then(json);
export const admitMany = (key: string, body: unknown) =>
  admitBatch(apiRequest('/v1/tickets/batch/eventAdmission', { key, body })).then(json);
