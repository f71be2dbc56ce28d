/** Reading the JSON text of an entity's data, as typed in '+ New' or an inline edit. */

/**
 * Parses `text` as an entity's data: a JSON object. Empty text is `{}`. Returns the object or
 * the message to show (the parser's own message for invalid JSON, as the spec asks).
 */
export function parseData(text: string): { data: Record<string, unknown> } | { error: string } {
  if (text.trim() === '') return { data: {} }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { error: (error as Error).message }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { error: 'Data must be a JSON object, e.g. {"city": "London"}' }
  return { data: parsed as Record<string, unknown> }
}
