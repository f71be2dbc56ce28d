import { useId, useState, type FormEvent } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
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
import type { OrgScope } from '../../lib/org-scope'
import { apiKeysQuery, createApiKey, type CreatedApiKey } from './api-keys-api'

/** The end of `day` (YYYY-MM-DD) in the browser's time zone, as ISO 8601. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString()

/**
 * 'Create API key' button and its dialog: name, scopes as comma-separated text (default
 * read,write), an optional last day, and, when a single app is chosen, whether the key is bound
 * to it. Once created, the dialog shows the secret with a copy button, the only time it is seen.
 */
export function CreateApiKeyDialog({ scope }: { scope: OrgScope & { appSlug: string | null } }) {
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState('read,write')
  const [expires, setExpires] = useState('')
  const [bindToApp, setBindToApp] = useState(false)
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const ids = { name: useId(), scopes: useId(), expires: useId(), app: useId(), key: useId() }
  const queryClient = useQueryClient()
  const create = useMutation({
    mutationFn: () =>
      createApiKey(scope.orgId, {
        name: name.trim(),
        scopes,
        expiresAt: expires ? endOfDay(expires) : undefined,
        appId: bindToApp && scope.appId ? scope.appId : undefined,
      }),
    onSuccess: async (key) => {
      setCreated(key)
      toast.success('API Key created')
      await queryClient.invalidateQueries({ queryKey: apiKeysQuery(scope.orgId).queryKey })
    },
    onError: (error) => toast.error(error.message),
  })

  const reset = (next: boolean) => {
    setOpen(next)
    if (next) return
    setName('')
    setScopes('read,write')
    setExpires('')
    setBindToApp(false)
    setCreated(null)
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (name.trim()) create.mutate()
  }
  const copy = async (key: string) => {
    try {
      await navigator.clipboard.writeText(key)
      toast.success('Copied')
    } catch {
      toast.error('Could not copy: select the key and copy it by hand')
    }
  }

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        <Button type="button">Create API key</Button>
      </DialogTrigger>
      <DialogContent>
        {created ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Your new API key</DialogTitle>
              <DialogDescription>
                Copy it now and keep it somewhere safe: it will not be shown again.
              </DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor={ids.key}>Secret key of {created.name}</Label>
              <div className="flex gap-2">
                <Input id={ids.key} readOnly value={created.key} className="font-mono text-xs" />
                <Button type="button" variant="outline" onClick={() => copy(created.key)}>
                  Copy
                </Button>
              </div>
            </div>
            <DialogFooter>
              <Button type="button" onClick={() => reset(false)}>
                Done
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={submit} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>New API key</DialogTitle>
              <DialogDescription>
                A key lets a program use this organization&apos;s API with the scopes you give it.
              </DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor={ids.name}>Name</Label>
              <Input
                id={ids.name}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="Intake form"
                maxLength={100}
                required
                autoComplete="off"
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={ids.scopes}>Scopes</Label>
              <Input
                id={ids.scopes}
                value={scopes}
                onChange={(e) => setScopes(e.target.value)}
                autoComplete="off"
              />
              <p className="text-xs text-muted-foreground">Comma-separated: read, write, admin.</p>
            </div>
            <div className="grid gap-2">
              <Label htmlFor={ids.expires}>Expires (optional)</Label>
              <Input
                id={ids.expires}
                type="date"
                value={expires}
                onChange={(e) => setExpires(e.target.value)}
              />
            </div>
            {scope.appId && (
              <label htmlFor={ids.app} className="flex items-center gap-2 text-sm">
                <input
                  id={ids.app}
                  type="checkbox"
                  checked={bindToApp}
                  onChange={(e) => setBindToApp(e.target.checked)}
                />
                Only the app {scope.appSlug}
              </label>
            )}
            <DialogFooter>
              <Button type="submit" disabled={!name.trim() || create.isPending}>
                {create.isPending ? 'Creating…' : 'Create key'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}
