/**
 * Whether an error says the database could not be reached or dropped the connection the statement was
 * on, rather than anything about the statement: the server shutting down, crashed or starting up
 * (SQLSTATE 57P01–57P03), a connection exception (class 08), the driver's closed, ended or destroyed
 * connection, or the socket refused, reset or timed out. Such a failure is the database's outage, not the
 * caller's request: answered 503 with Retry-After, never a 500; and a transaction that failed this way
 * before its COMMIT was sent committed nothing, so it may run again once (`transaction()`).
 */
export function isConnectionFault(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (SERVER_CODES.has(code) || code.startsWith('08') || CLIENT_CODES.has(code))) {
      return true;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const SERVER_CODES = new Set(['57P01', '57P02', '57P03']);
const CLIENT_CODES = new Set([
  // postgres.js
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // the socket
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * Waits before each new run of a statement or transaction that met a dropped connection (under half a
 * second in all): the pool may still hold other connections the same restart killed, each failing at once.
 */
export const RECONNECT_WAITS_MS = [10, 40, 100, 250];

/** Seconds a caller is told to wait before retrying during a database outage. */
export const OUTAGE_RETRY_AFTER_S = 5;
