import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'

/** /dashboard/voice: placeholder screen (Voice Assistant); shows the organization prompt, then a not-yet-available note. */
export function VoicePage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader
        title="Voice Assistant"
        description="Record dictation or meetings and have them transcribed and analysed."
      />
      {requireOrg(() => (
        <ComingSoon>
          <p>
            Voice recording is not available yet: the recorder and transcription are still being
            built.
          </p>
        </ComingSoon>
      ))}
    </>
  )
}
