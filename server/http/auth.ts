import { getSql } from '@/db';
import { AppError } from '@/server/lib/errors';
import { type AuthenticatedKey, authenticateApiKey, kindOfKey } from '@/server/modules/partners';
import type { AuthKind } from '@/server/lib/contract';

/** The key from `Authorization: <key>` or `Authorization: Bearer <key>`. */
export function presentedKey(req: Request): string | null {
  const header = req.headers.get('authorization')?.trim();
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return (match ? match[1] : header).trim() || null;
}

/**
 * The caller's key, checked: its kind against the operation's (`publishableKey`: the operation also takes a
 * publishable key), then the key itself, then its partner and channel.
 */
export async function authenticate(
  req: Request,
  kind: Exclude<AuthKind, 'none'>,
  publishableKey = false,
): Promise<AuthenticatedKey> {
  const key = presentedKey(req);
  if (!key) {
    throw new AppError('UNAUTHORIZED', 'Missing API key: send it in the Authorization header', {
      headers: { 'www-authenticate': 'Bearer' },
    });
  }
  const presentedKind = kindOfKey(key);
  if (presentedKind === 'publishable' && !publishableKey) {
    // Before the lookup, like a wrong kind: any pk_… is refused here, genuine or not.
    throw new AppError(
      'FORBIDDEN',
      'A publishable key (pk_live_… or pk_test_…) opens only the widget reads (GET /v1/wrapper/accesslayer?type=buy and GET /v1/wrapper/accesslayer/resale-entry); this operation needs a secret API key',
    );
  }
  if (presentedKind !== kind && !(presentedKind === 'publishable' && kind === 'partner')) {
    // Checked before the lookup: the key kind is visible in its prefix, and a wrong kind is a 403
    // whether or not the key exists, so this answer reveals nothing about other keys.
    throw new AppError(
      'FORBIDDEN',
      kind === 'partner'
        ? 'A channels API key (sk_ch_… or sk_test_ch_…) cannot call the partner API; use the partner API key'
        : 'The Channels API requires a channels API key (sk_ch_… or sk_test_ch_…)',
    );
  }
  const found = await authenticateApiKey(key, getSql());
  if (!found) {
    throw new AppError('UNAUTHORIZED', 'Invalid or revoked API key', { headers: { 'www-authenticate': 'Bearer' } });
  }
  if (found.partnerDisabled) {
    // After the key check, so only a holder of a genuine key learns that its partner is disabled.
    throw new AppError('FORBIDDEN', 'This partner is disabled. Contact Encore support.');
  }
  if (found.channelDisabled) throw new AppError('FORBIDDEN', 'This channel is disabled. Contact Encore support.');
  return found;
}
