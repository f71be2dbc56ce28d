/**
 * The media query under which the Documents screen stacks the library above the opened document:
 * narrower than Tailwind's `lg` breakpoint (64rem), where documents-screen.tsx sets them side by
 * side.
 */
const STACKED_QUERY = '(max-width: 63.99rem)'

/** Whether a media query matches; false where the browser cannot tell (jsdom). */
function matches(query: string): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(query).matches
}

/**
 * Scrolls `element` into view at `block` ('start', 'center'…), smoothly unless the reader asked
 * for reduced motion (then at once). With `onlyWhenStacked`, only while the Documents screen stacks
 * library and document (a phone or narrow window; where the browser cannot tell, it scrolls):
 * side by side, both are already in view. Does nothing for a null element or where the browser
 * has no scrollIntoView.
 */
export function scrollIntoViewGently(
  element: Element | null,
  {
    block = 'start',
    onlyWhenStacked = false,
  }: { block?: ScrollLogicalPosition; onlyWhenStacked?: boolean } = {},
): void {
  if (onlyWhenStacked && typeof window.matchMedia === 'function' && !matches(STACKED_QUERY)) return
  const behavior = matches('(prefers-reduced-motion: reduce)') ? 'auto' : 'smooth'
  element?.scrollIntoView?.({ block, behavior })
}
