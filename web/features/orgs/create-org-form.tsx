import { useId, useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { useCreateOrg } from './use-create-org'

/** Name field and Create button; the slug is derived from the name and previewed. */
export function CreateOrgForm({ onCreated }: { onCreated?: (orgId: string) => void }) {
  const [name, setName] = useState('')
  const createOrg = useCreateOrg({ onCreated })
  const inputId = useId()
  const hintId = useId()
  const trimmed = name.trim()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!trimmed) return
    createOrg.mutate(trimmed)
  }

  return (
    <form onSubmit={submit} className="space-y-2">
      <Label htmlFor={inputId}>Organization name</Label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Smith & Partners LLP"
          aria-describedby={hintId}
          required
          autoComplete="organization"
        />
        <Button type="submit" disabled={!trimmed || createOrg.isPending}>
          {createOrg.isPending ? 'Creating…' : 'Create'}
        </Button>
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        {'You will be its owner.'}
      </p>
    </form>
  )
}
