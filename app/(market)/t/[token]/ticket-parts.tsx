import type { getTranslations } from 'next-intl/server';
import QRCode from 'qrcode';
import type { secureView } from '@/server/modules/marketplace';
import { MOVING_CODE_SECONDS, movingCodeKey } from '@/server/modules/protection';
import { MovingCode } from './protection';

type T = Awaited<ReturnType<typeof getTranslations<'checkout'>>>;
type View = NonNullable<Awaited<ReturnType<typeof secureView>>>;

/** The unlocked code: the QR (the partner's image, or one drawn from the code) and the moving code. */
export async function TicketCode({
  access,
  protectionActive,
  token,
  t,
}: {
  access: NonNullable<View['ticketAccess']>;
  protectionActive: View['protectionActive'];
  token: string;
  t: T;
}) {
  const qrSvg =
    access.locator && access.type !== 'URL'
      ? await QRCode.toString(access.locator, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })
      : null;
  return (
    <div className="ticket-code" data-testid="ticket-code">
      {!protectionActive ? <p className="mk-muted">{t('unprotected')}</p> : null}
      {access.type === 'URL' && access.locator ? (
        // eslint-disable-next-line @next/next/no-img-element -- the partner's own QR image
        <img className="ticket-qr" src={access.locator} alt={t('qrAlt')} data-testid="ticket-qr" />
      ) : qrSvg ? (
        <div
          className="ticket-qr"
          role="img"
          aria-label={t('qrAlt')}
          data-testid="ticket-qr"
          dangerouslySetInnerHTML={{ __html: qrSvg }}
        />
      ) : null}
      <MovingCode
        keyHex={movingCodeKey(token).toString('hex')}
        step={MOVING_CODE_SECONDS}
        label={t('liveCode')}
        hint={t('liveHint')}
      />
    </div>
  );
}

/** What the holder can do with the ticket: sell it, hand it to someone, put the show in a calendar. */
export function TicketActions({
  actions,
  ticketPk,
  token,
  t,
}: {
  actions: View['actions'];
  ticketPk: string;
  token: string;
  t: T;
}) {
  if (!(actions.sell || actions.transfer || actions.calendar)) return null;
  return (
    <nav aria-label={t('actionsTitle')} className="ticket-actions" data-testid="ticket-actions">
      {actions.sell ? (
        <a className="mk-btn mk-btn-secondary" href={`/sell/${ticketPk}`}>
          {t('actionSell')}
        </a>
      ) : null}
      {actions.transfer ? (
        <a className="mk-btn mk-btn-secondary" href={`/t/${token}/transfer`}>
          {t('actionTransfer')}
        </a>
      ) : null}
      {actions.calendar ? (
        <a className="mk-btn mk-btn-secondary" href={`/t/${token}/calendar.ics`} download>
          {t('actionCalendar')}
        </a>
      ) : null}
    </nav>
  );
}
