import { EVERY_PARTY } from './local/risk-orientation'
import type { Party, Risk } from './types'

/**
 * Says whose risk each risk is, and why, from the side of `ours` (the party the firm acts for,
 * see partyWeActFor) or, with `ours` null, from no side. Reads only what the engine stored:
 * `binds` (the parties the cited passage burdens) and `severityIfBindsUs`/`severityIfBindsThem`.
 *
 * - A risk binding every party (or naming none, or EVERY_PARTY when the parties are unknown) is
 *   'mutual' and keeps its severity.
 * - With `ours`: one binding our client is 'binds-us' ("Our risk") at `severityIfBindsUs`; one
 *   binding only the other side is 'binds-them' ("Their risk") at `severityIfBindsThem`, low when
 *   the engine gave none (a burden on the other side is informational for us).
 * - Without `ours`: the risk names the party that bears it ("Risk for Beta LLC") at its own
 *   severity, and any orientation stored by an older analysis is dropped.
 * Pure; never throws.
 */
export function orientRisks(
  risks: readonly Risk[],
  parties: readonly Party[],
  ours: Party | null,
): Risk[] {
  return risks.map((risk) => orientOne(risk, parties, ours))
}

function orientOne(risk: Risk, parties: readonly Party[], ours: Party | null): Risk {
  const { orientation: _stored, ...neutral } = risk
  const binds = risk.binds ?? []
  const everyone =
    binds.length === 0 ||
    binds.includes(EVERY_PARTY) ||
    (parties.length > 1 && parties.every((party) => binds.includes(party.name)))
  if (everyone) {
    const reason = risk.absent
      ? 'The contract lacks this clause, which leaves every party without it.'
      : binds.length === 0 || binds.includes(EVERY_PARTY)
        ? 'The cited clause names no one party: it concerns both sides.'
        : `The cited clause binds ${names(binds)} alike.`
    return {
      ...neutral,
      ...(ours ? { orientation: 'mutual' as const } : {}),
      whose: { label: 'Mutual', reason },
    }
  }
  if (!ours) {
    return {
      ...neutral,
      whose: {
        label: `Risk for ${names(binds)}`,
        reason: `The cited clause binds ${names(binds)}.`,
      },
    }
  }
  if (binds.includes(ours.name)) {
    return {
      ...neutral,
      orientation: 'binds-us',
      severity: risk.severityIfBindsUs ?? risk.severity,
      whose: {
        label: 'Our risk',
        reason: `The cited clause binds ${names(binds)}, for whom we act.`,
      },
    }
  }
  return {
    ...neutral,
    orientation: 'binds-them',
    severity: risk.severityIfBindsThem ?? 'low',
    whose: {
      label: 'Their risk',
      reason: `The cited clause binds ${names(binds)}, not ${ours.name}, for whom we act: informational for us.`,
    },
  }
}

function names(list: readonly string[]): string {
  return list.length <= 2
    ? list.join(' and ')
    : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`
}
