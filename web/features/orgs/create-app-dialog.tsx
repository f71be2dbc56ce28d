import { useId, useState, type FormEvent } from 'react'
import { PlusIcon } from 'lucide-react'
import { Button } from '../../components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { useCreateApp } from './use-create-app'

const SLUG_PATTERN = '[a-z0-9]+(-[a-z0-9]+)*'

/** '+' button opening a dialog that creates an app (by slug) in the current organisation. */
export function CreateAppDialog({ disabled }: { disabled?: boolean }) {
  const [open, setOpen] = useState(false)
  const [slug, setSlug] = useState('')
  const createApp = useCreateApp({
    onCreated: () => {
      setOpen(false)
      setSlug('')
    },
  })
  const inputId = useId()
  const hintId = useId()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const value = slug.trim()
    if (value) createApp.mutate(value)
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-9"
          aria-label="New app"
          title="New app"
          disabled={disabled}
        >
          <PlusIcon aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>New app</DialogTitle>
            <DialogDescription>
              Apps partition an organization&apos;s data, e.g. one per client or practice area.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={inputId}>Slug</Label>
            <Input
              id={inputId}
              value={slug}
              onChange={(e) => setSlug(e.target.value.toLowerCase())}
              placeholder="litigation"
              pattern={SLUG_PATTERN}
              aria-describedby={hintId}
              required
              autoComplete="off"
            />
            <p id={hintId} className="text-xs text-muted-foreground">
              Lower-case letters, digits and dashes.
            </p>
          </div>
          <DialogFooter>
            <Button type="submit" disabled={!slug.trim() || createApp.isPending}>
              {createApp.isPending ? 'Creating…' : 'Create app'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
