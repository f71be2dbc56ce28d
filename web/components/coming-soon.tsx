import type { ReactNode } from 'react'
import { ConstructionIcon } from 'lucide-react'
import { Card, CardContent } from './ui/card'

/** Dashed card stating honestly that a screen is not available yet. */
export function ComingSoon({ children }: { children: ReactNode }) {
  return (
    <Card className="border-dashed bg-muted/30 shadow-none">
      <CardContent className="flex items-start gap-3 p-6">
        <ConstructionIcon
          className="mt-0.5 size-5 shrink-0 text-muted-foreground"
          aria-hidden="true"
        />
        <div className="space-y-1 text-sm text-muted-foreground">{children}</div>
      </CardContent>
    </Card>
  )
}
