/** The site mark: a door with a keyhole, in the primary green. */
export function Logo({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect x="2" y="2" width="28" height="28" rx="8" className="fill-primary-600 dark:fill-primary-500" />
      <path d="M10 26V9a3 3 0 0 1 3-3h6a3 3 0 0 1 3 3v17" fill="none" stroke="white" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="16" cy="14.5" r="2.4" fill="white" />
      <path d="M15 16.5h2l.8 4.5h-3.6z" fill="white" />
    </svg>
  );
}
