import type { SellBanner } from '@/server/modules/access-layer/schemas';

/**
 * A `sellBanner` component drawn the way a partner's page would: the dashboard's live preview renders
 * the very object the access layer answers (server/modules/access-layer/banner-view.ts).
 */
export function SellBannerView({ banner, testId }: { banner: SellBanner; testId?: string }) {
  return (
    <div
      className="sell-banner"
      data-testid={testId}
      data-visible={banner.visible}
      style={{ background: banner.colors?.background ?? '#1f2937', color: banner.colors?.text ?? '#ffffff' }}
    >
      {banner.image ? (
        // eslint-disable-next-line @next/next/no-img-element -- staff's image URL, shown as the partner would
        <img className="sell-banner-image" src={banner.image} alt="" data-field="image" />
      ) : null}
      <div className="sell-banner-text">
        <p className="sell-banner-title" data-field="title">
          {banner.title}
        </p>
        {banner.description ? (
          <p className="sell-banner-description" data-field="description">
            {banner.description}
          </p>
        ) : null}
      </div>
      <a
        className="sell-banner-cta"
        data-field="cta"
        href={banner.callToAction.enabled ? banner.callToAction.url : undefined}
        aria-disabled={!banner.callToAction.enabled}
        target="_blank"
        rel="noreferrer"
        style={{
          background: banner.callToAction.colors?.background ?? '#ffffff',
          color: banner.callToAction.colors?.text ?? '#111827',
        }}
      >
        {banner.callToAction.text}
      </a>
    </div>
  );
}
