import type { Risk, Severity } from './types'

/** A risk as shown for one side: its shown severity and whom it binds, in words. */
export interface OrientedRisk extends Risk {
  /** "Binds Acme Corp" without our party; "Binds us" / "Binds them (informational)" / "Binds both sides" with it. */
  bindsLabel: string | null
}

/**
 * Orients risks to `ourParty` (a party name from the result's key terms) on the client, so that
 * changing the choice needs no new analysis: a risk whose `binds` includes our party takes the
 * engine's `severityIfBindsUs`, one binding only the other side `severityIfBindsThem`; the engine
 * decides those severities, this only picks. Risks without `binds` are unchanged. `ourParty`
 * null gives the neutral "Binds X" labels and the engine's severities.
 */
export function orientRisks(risks: readonly Risk[], ourParty: string | null): OrientedRisk[] {
  return risks.map((risk) => {
    const binds = risk.binds ?? []
    if (binds.length === 0) return { ...risk, bindsLabel: null }
    if (!ourParty) return { ...risk, bindsLabel: `Binds ${binds.join(' and ')}` }
    if (binds.includes(ourParty) && binds.length > 1)
      return { ...risk, bindsLabel: 'Binds both sides' }
    const ours = binds.includes(ourParty)
    const severity: Severity = ours
      ? (risk.severityIfBindsUs ?? risk.severity)
      : (risk.severityIfBindsThem ?? risk.severity)
    return { ...risk, severity, bindsLabel: ours ? 'Binds us' : 'Binds them (informational)' }
  })
}
