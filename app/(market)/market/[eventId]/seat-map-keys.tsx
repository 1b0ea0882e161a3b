'use client';

/**
 * The seat map's sections as controls once JavaScript runs: a click on a section, or Enter or Space on a
 * focused one, follows that section's link in the list below the map (the links work without JavaScript;
 * the map's shapes are what this adds). Only sections with tickets on sale are focusable (server-drawn).
 */
export function SeatMapKeys({ children }: { children: React.ReactNode }) {
  const follow = (target: EventTarget | null): boolean => {
    const section = target instanceof Element ? target.closest('[data-map-section][tabindex]') : null;
    const key = section?.getAttribute('data-map-section');
    if (!section || !key) return false;
    const links = section.closest('.buy-map')?.querySelectorAll<HTMLAnchorElement>('a[data-map-link]') ?? [];
    const link = [...links].find((a) => a.dataset.mapLink === key);
    link?.click();
    return !!link;
  };
  return (
    // The sections inside are the controls (tabindex, role="link", their own names); this only listens.
    <div
      className="buy-map-drawing"
      onClick={(e) => {
        if (follow(e.target)) e.preventDefault();
      }}
      onKeyDown={(e) => {
        if ((e.key === 'Enter' || e.key === ' ') && follow(e.target)) e.preventDefault();
      }}
    >
      {children}
    </div>
  );
}
