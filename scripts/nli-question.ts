/**
 * A ContractNLI hypothesis as the question a lawyer would ask: its first auxiliary moved to the
 * front ("Receiving Party shall not disclose …" → "Shall Receiving Party not disclose …?"); with
 * none, "Does the agreement provide that …?". Shared by eval:nli and the answer models' trainer.
 */
export function asQuestion(hypothesis: string): string {
  const text = hypothesis.trim().replace(/\.$/, '')
  const aux = /\b(shall|may|must|will|can|is|are|does|do|has|have)\b/i.exec(text)
  if (!aux) return `Does the agreement provide that ${text}?`
  const verb = aux[0].toLowerCase()
  const rest = `${text.slice(0, aux.index)}${text.slice(aux.index + aux[0].length)}`
    .replace(/\s+/g, ' ')
    .trim()
  return `${verb[0]!.toUpperCase()}${verb.slice(1)} ${rest}?`
}
