/**
 * The starter playbooks shipped in server/playbooks/starters/ (a mutual NDA, a commercial supply
 * agreement for the customer): read once from their JSON files, validated by PlaybookDocument
 * (a malformed starter fails at start-up and in check-playbook.test.ts), copied into an
 * organisation as a playbook with a draft version 1.
 */
import { readFileSync } from 'node:fs'
import { PlaybookDocument } from '../../playbooks/positions'

/** The starters' ids, as the copy route names them. */
export const STARTER_IDS = ['mutual-nda', 'commercial-supply'] as const
export type StarterId = (typeof STARTER_IDS)[number]

let loaded: ReadonlyMap<StarterId, PlaybookDocument> | null = null

/** Every starter by id, parsed once. Throws when a shipped file does not match the schema. */
export function starters(): ReadonlyMap<StarterId, PlaybookDocument> {
  loaded ??= new Map(
    STARTER_IDS.map((id) => {
      const url = new URL(`../../playbooks/starters/${id}.json`, import.meta.url)
      return [id, PlaybookDocument.parse(JSON.parse(readFileSync(url, 'utf8')))] as const
    }),
  )
  return loaded
}
