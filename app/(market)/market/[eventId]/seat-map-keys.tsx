'use client';

/**
 * The seat map's sections are links drawn on the map (`<a>` in the SVG): a click and Enter follow them
 * before any script runs. What this adds once JavaScript runs is Space on a focused section, as on a button.
 */
export function SeatMapKeys({ children }: { children: React.ReactNode }) {
  return (
    // The sections inside are the controls (links with their own names); this only listens.
    <div
      className="buy-map-drawing"
      onKeyDown={(e) => {
        const section = e.target instanceof Element ? e.target.closest('a[href]') : null;
        if (e.key !== ' ' || !section) return;
        e.preventDefault();
        (section as HTMLElement | SVGElement).dispatchEvent(
          new MouseEvent('click', { bubbles: true, cancelable: true }),
        );
      }}
    >
      {children}
    </div>
  );
}
