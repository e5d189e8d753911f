/** The site mark: a door with a keyhole, in the primary green; drawn by the stylesheet (the `logo` class in web/styles/app.css). */
export function Logo({ className = 'size-8' }: { className?: string }) {
  return <span aria-hidden="true" className={`logo ${className}`} />;
}
