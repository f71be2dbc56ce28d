import type { ReactNode } from 'react'
import { Button } from './ui/button'
import {
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './ui/dialog'

/**
 * The inside of a dialog that asks before it acts: its title and description, any `children`
 * (a form's fields), then Cancel and the dialog's `action` (its confirm or submit button).
 * Cancel comes first, so it takes the focus on opening (Radix focuses the first focusable
 * element) and an Enter right after opening does nothing; it closes the dialog as Escape does.
 * Put it in a `DialogContent`, or in the form inside one.
 */
export function DialogLayout({
  title,
  titleClassName,
  description,
  action,
  children,
}: {
  title: ReactNode
  titleClassName?: string
  description: ReactNode
  action: ReactNode
  children?: ReactNode
}) {
  return (
    <>
      <DialogHeader>
        <DialogTitle className={titleClassName}>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      {children}
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            Cancel
          </Button>
        </DialogClose>
        {action}
      </DialogFooter>
    </>
  )
}
