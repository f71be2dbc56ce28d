import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ShieldCheckIcon } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '../../../components/ui/button'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card'
import { acknowledgeConsent, consentQuery } from '../api/consent'

/**
 * The recording-consent notice shown before a member's first recording in an organisation; the
 * acknowledgement is recorded by the server.
 */
export function ConsentNotice({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient()
  const acknowledge = useMutation({
    mutationFn: () => acknowledgeConsent(orgId),
    onSuccess: (consent) => queryClient.setQueryData(consentQuery(orgId).queryKey, consent),
    onError: (error) => toast.error(error.message),
  })
  return (
    <Card role="region" aria-label="Recording consent">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheckIcon aria-hidden="true" className="size-5" /> Before you record
        </CardTitle>
        <CardDescription>
          Recording a conversation can require the consent of everyone in it.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        <p>
          Tell everyone who will be recorded that you are recording, and why, before you start. In
          many places recording without every participant&apos;s consent is unlawful. Recordings and
          their transcripts are stored in this organisation and visible to its members.
        </p>
        <div>
          <Button onClick={() => acknowledge.mutate()} disabled={acknowledge.isPending}>
            I will tell everyone I record
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}
