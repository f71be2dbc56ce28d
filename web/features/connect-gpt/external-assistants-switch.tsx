import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { Card, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog'
import { externalAssistantsQuery, setExternalAssistants } from './api'

/** What turning assistants on means for the firm's data; shown before an owner confirms. */
export const PROVIDER_NOTICE =
  "Once on, an assistant connected with one of your API keys or tokens can read this organization's documents, analyses, entities and conversations, and what it reads is sent to the assistant's provider (OpenAI for a custom GPT, Anthropic for Claude, …) under that provider's terms."

/**
 * The owner's switch for external assistants: its state for everyone, and for owners a button
 * that turns it on after a confirmation dialog with PROVIDER_NOTICE, or off at once.
 */
export function ExternalAssistantsSwitch({ orgId }: { orgId: string }) {
  const state = useQuery(externalAssistantsQuery(orgId))
  const queryClient = useQueryClient()
  const [confirming, setConfirming] = useState(false)
  const change = useMutation({
    mutationFn: (enabled: boolean) => setExternalAssistants(orgId, enabled),
    onSuccess: (saved) => {
      queryClient.setQueryData(externalAssistantsQuery(orgId).queryKey, saved)
      setConfirming(false)
      toast.success(
        saved.enabled ? 'External assistants turned on' : 'External assistants turned off',
      )
    },
    onError: (error) => toast.error(error.message),
  })
  const enabled = state.data?.enabled ?? false
  const canChange = state.data?.canChange ?? false

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>External assistants</CardTitle>
          <Badge variant={enabled ? 'default' : 'secondary'}>
            {state.isPending ? 'Loading…' : enabled ? 'On' : 'Off'}
          </Badge>
        </div>
        <CardDescription>
          Custom GPTs and MCP clients can call Lexdesk only while this is on. It is off until an
          owner turns it on.
        </CardDescription>
      </CardHeader>
      <div className="flex flex-wrap items-center gap-3 px-6 pb-6">
        {/* While it loads, the badge says so; no sentence yet (an owner is told nothing false). */}
        {state.isPending ? null : state.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {state.error.message}
          </p>
        ) : !canChange ? (
          <p className="text-sm text-muted-foreground">Only an owner can change this.</p>
        ) : enabled ? (
          <Button
            variant="outline"
            disabled={change.isPending}
            onClick={() => change.mutate(false)}
          >
            Turn off external assistants
          </Button>
        ) : (
          <Button onClick={() => setConfirming(true)}>Turn on external assistants</Button>
        )}
      </div>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Turn on external assistants?</DialogTitle>
            <DialogDescription>{PROVIDER_NOTICE}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button disabled={change.isPending} onClick={() => change.mutate(true)}>
              I understand, turn on
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  )
}
