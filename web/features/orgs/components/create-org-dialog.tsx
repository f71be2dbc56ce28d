import { useState } from 'react'
import { PlusIcon } from 'lucide-react'
import { Button } from '../../../components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog'
import { CreateOrgForm } from './create-org-form'

/** '+' button opening a dialog with the create-organisation form. */
export function CreateOrgDialog() {
  const [open, setOpen] = useState(false)
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-9"
          aria-label="New organization"
          title="New organization"
        >
          <PlusIcon aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New organization</DialogTitle>
          <DialogDescription>
            An organization holds a firm&apos;s documents and data. You become its owner.
          </DialogDescription>
        </DialogHeader>
        <CreateOrgForm onCreated={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  )
}
