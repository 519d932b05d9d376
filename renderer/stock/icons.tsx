/** Small inline icons (no icon font, no emoji: they render the same everywhere). Always next to words. */
export function LockIcon() {
  return (
    <svg className="icon" aria-hidden="true" focusable="false" width="12" height="12" viewBox="0 0 12 12">
      <path d="M3.5 5V3.8a2.5 2.5 0 0 1 5 0V5" fill="none" stroke="currentColor" strokeWidth="1.3" />
      <rect x="2" y="5" width="8" height="6" rx="1.2" fill="currentColor" />
    </svg>
  );
}
