import { RequireOrg } from '../../app/require-org'
import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'

/** /dashboard/voice: placeholder screen (Voice Assistant); shows the organization prompt, then a not-yet-available note. */
export function VoicePage() {
  return (
    <>
      <PageHeader
        title="Voice Assistant"
        description="Record dictation or meetings and have them transcribed and analysed."
      />
      <RequireOrg>
        {() => (
          <ComingSoon>
            <p>
              Voice recording is not available yet: the recorder and transcription are still being
              built.
            </p>
          </ComingSoon>
        )}
      </RequireOrg>
    </>
  )
}
