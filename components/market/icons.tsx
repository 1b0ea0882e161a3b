import type { ReactNode } from 'react';

/**
 * Icons drawn as SVG rather than emoji: an emoji needs a colour-emoji font, and without one (many
 * Linux desktops, some kiosks) the fan sees an empty box. Sized in em and drawn in currentColor so an
 * icon follows the text it sits in; hidden from assistive technology, since the words beside it say it.
 */
function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="mk-icon"
      width="1em"
      height="1em"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export function CheckIcon() {
  return (
    <Icon>
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </Icon>
  );
}

export function LockIcon() {
  return (
    <Icon>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </Icon>
  );
}

export function HourglassIcon() {
  return (
    <Icon>
      <path d="M6 3h12M6 21h12M7 3c0 5 10 5 10 9s-10 4-10 9M17 3c0 5-10 5-10 9s10 4 10 9" />
    </Icon>
  );
}
