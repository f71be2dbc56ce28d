/** Full-height 'Loading...' message with a polite live region. */
export function LoadingScreen({ label = 'Loading...' }: { label?: string }) {
  return (
    <div
      role="status"
      className="flex min-h-[50vh] items-center justify-center text-muted-foreground"
    >
      {label}
    </div>
  )
}
