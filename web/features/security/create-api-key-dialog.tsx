import { useId, useState } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import { Form, FormField, FormSubmit } from '../../components/form/form'
import { useZodForm } from '../../components/form/use-zod-form'
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

/** The new key's form: the name is trimmed and required (the server keeps at most 100 characters). */
const newKeySchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Give the key a name.'), z.maxLength(100)),
  scopes: z.string(),
  expires: z.string(),
  bindToApp: z.boolean(),
})
type NewKeyValues = z.input<typeof newKeySchema>
const NO_KEY: NewKeyValues = { name: '', scopes: 'read,write', expires: '', bindToApp: false }

/**
 * 'Create API key' button and its dialog: name, scopes as comma-separated text (default
 * read,write), an optional last day, and, when a single app is chosen, whether the key is bound
 * to it. Once created, the dialog shows the secret with a copy button, the only time it is seen.
 */
export function CreateApiKeyDialog({ scope }: { scope: OrgScope & { appSlug: string | null } }) {
  const [open, setOpen] = useState(false)
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const form = useZodForm(newKeySchema, NO_KEY)
  const ids = { app: useId(), key: useId() }
  const queryClient = useQueryClient()
  const create = useMutation({
    mutationFn: ({ name, scopes, expires, bindToApp }: z.output<typeof newKeySchema>) =>
      createApiKey(scope.orgId, {
        name,
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
    form.reset(NO_KEY)
    setCreated(null)
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
          <Form form={form} onSubmit={(values) => create.mutate(values)} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>New API key</DialogTitle>
              <DialogDescription>
                A key lets a program use this organization&apos;s API with the scopes you give it.
              </DialogDescription>
            </DialogHeader>
            <FormField<NewKeyValues>
              name="name"
              label="Name"
              placeholder="Intake form"
              maxLength={100}
              autoComplete="off"
              className="grid gap-2"
            />
            <FormField<NewKeyValues>
              name="scopes"
              label="Scopes"
              hint="Comma-separated: read, write, admin."
              autoComplete="off"
              className="grid gap-2"
            />
            <FormField<NewKeyValues>
              name="expires"
              label="Expires (optional)"
              type="date"
              className="grid gap-2"
            />
            {scope.appId && (
              <label htmlFor={ids.app} className="flex items-center gap-2 text-sm">
                <input id={ids.app} type="checkbox" {...form.register('bindToApp')} />
                Only the app {scope.appSlug}
              </label>
            )}
            <DialogFooter>
              <FormSubmit pending={create.isPending} pendingLabel="Creating…">
                Create key
              </FormSubmit>
            </DialogFooter>
          </Form>
        )}
      </DialogContent>
    </Dialog>
  )
}
