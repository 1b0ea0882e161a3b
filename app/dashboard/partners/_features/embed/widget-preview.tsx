'use client';

import { useEffect, useRef } from 'react';

/**
 * The widget live, as the snippets put it on a partner's page: Encore's script (added once; the page's
 * policy lets a script its own scripts add run) and one `<encore-resale>` with the chosen attributes, made
 * again whenever they change.
 */
export function WidgetPreview({ attributes }: { attributes: Record<string, string> }) {
  const box = useRef<HTMLDivElement>(null);
  const key = JSON.stringify(attributes);
  useEffect(() => {
    if (!document.querySelector('script[data-encore-widget]')) {
      const script = document.createElement('script');
      script.src = '/widget/v1.js';
      script.async = true;
      script.dataset.encoreWidget = '';
      document.head.append(script);
    }
    const element = document.createElement('encore-resale');
    for (const [name, value] of Object.entries(JSON.parse(key) as Record<string, string>)) {
      element.setAttribute(name, value);
    }
    box.current?.replaceChildren(element);
  }, [key]);
  return <div ref={box} data-testid="widget-preview" />;
}
