/**
 * A playbook's positions (issue 46, decision 0153): for one clause type (a CUAD category the
 * clause detector finds, or a deal-sheet line), the firm's preferred stance, its acceptable
 * fallbacks ranked best first, and the stances it never accepts. Each stance holds sample
 * language (what the firm would write) and optional typed rules the check decides by
 * (rules.ts); a position has a severity and guidance for the negotiator. The same schema
 * validates an import and is published as JSON Schema (`playbookJsonSchema`, served at
 * /api/public/schemas/playbook.json and kept in playbook.schema.json).
 */
import { z } from 'zod'
import { DETECTED_CATEGORIES } from '../ai/analyzer/shared/cuad-taxonomy'
import { DEAL_SHEET_KEYS } from '../ai/analyzer/types'

/**
 * The clause types a position may name: the 35 CUAD clause categories and Governing Law (names
 * as CUAD spells them, cuad-taxonomy.ts), then the deal-sheet lines by key ("liability", "term",
 * "assignment", … : types.ts DEAL_SHEET_KEYS).
 */
export const CLAUSE_TYPES = [...DETECTED_CATEGORIES, ...DEAL_SHEET_KEYS] as readonly string[]

/** Whether `type` names a deal-sheet line rather than a CUAD category. */
export function isDealSheetType(type: string): type is (typeof DEAL_SHEET_KEYS)[number] {
  return (DEAL_SHEET_KEYS as readonly string[]).includes(type)
}

/** The typed rules a stance may hold; each is read from the analysis by rules.ts. */
export const PlaybookRule = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('cap_at_least_fees'),
      multiple: z.number().positive().max(100).describe('N in "a cap of at least N × the fees"'),
    })
    .describe('Liability is capped at no less than N times the fees (or not capped at all)'),
  z
    .object({
      kind: z.literal('term_at_most_months'),
      months: z.number().int().min(1).max(1200),
    })
    .describe('The initial term lasts at most N months'),
  z
    .object({ kind: z.literal('consent_to_assign') })
    .describe('A party may not assign without the other party’s consent'),
  z
    .object({
      kind: z.literal('governing_law_in'),
      laws: z.array(z.string().trim().min(2).max(100)).min(1).max(50),
    })
    .describe('The governing law is one of these (matched as words: "England", "New York")'),
  z
    .object({
      kind: z.literal('notice_at_least_days'),
      days: z.number().int().min(1).max(3650),
    })
    .describe('The notice period stated is at least N days (months as 30, years as 365)'),
])
export type PlaybookRule = z.infer<typeof PlaybookRule>

/** One stance: sample language and the typed rules that recognise it in a contract. */
export const Stance = z.object({
  language: z
    .string()
    .trim()
    .max(5000)
    .describe('Sample language: what the firm would write (the suggested redline)'),
  rules: z
    .array(PlaybookRule)
    .max(10)
    .default([])
    .describe('All must hold for the stance to match; with none, the sample language is compared'),
})
export type Stance = z.infer<typeof Stance>

export const PositionSeverity = z.enum(['low', 'medium', 'high'])

/** The firm's position on one clause type. */
export const Position = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'Position id: lower-case letters, digits and dashes')
    .describe('Stable within the playbook; a check reports by it'),
  clauseType: z
    .string()
    .refine(
      (t) => CLAUSE_TYPES.includes(t),
      'Not a known clause type (CUAD category or deal-sheet line)',
    )
    .describe(
      'A CUAD category ("Anti-Assignment", "Governing Law") or a deal-sheet line key ("liability")',
    ),
  title: z.string().trim().min(1).max(200),
  severity: PositionSeverity,
  preferred: Stance,
  fallbacks: z.array(Stance).max(5).default([]).describe('Acceptable fallbacks, best first'),
  unacceptable: z.array(Stance).max(10).default([]),
  guidance: z.string().trim().max(4000).default('').describe('For the negotiator'),
})
export type Position = z.infer<typeof Position>

/** At most this many positions in a version (the bench checks 50 in well under a second). */
export const MAX_POSITIONS = 200

/** A version's positions: distinct ids. */
export const Positions = z
  .array(Position)
  .max(MAX_POSITIONS)
  .superRefine((positions, ctx) => {
    const seen = new Set<string>()
    positions.forEach((p, i) => {
      if (seen.has(p.id))
        ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `Position id "${p.id}" repeats` })
      seen.add(p.id)
    })
  })

/** A playbook as exported and imported (JSON): its name, description and one version's positions. */
export const PlaybookDocument = z
  .object({
    $schema: z.string().optional(),
    format: z.literal('lexdesk-playbook/1'),
    name: z.string().trim().min(1).max(200),
    description: z.string().trim().max(2000).default(''),
    positions: Positions,
  })
  .meta({ id: 'PlaybookDocument' })
export type PlaybookDocument = z.infer<typeof PlaybookDocument>

/** Where the JSON Schema is published (public: no credential; outside /api/v1). */
export const PLAYBOOK_SCHEMA_PATH = '/api/public/schemas/playbook.json'

/**
 * The published JSON Schema (draft 2020-12) of a playbook document, as an import is validated:
 * zod's own rendering of PlaybookDocument with the clause types spelled out as an enum (a zod
 * refinement renders as nothing). Pure; the same object on every call.
 */
export function playbookJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(PlaybookDocument, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown> & { $defs?: Record<string, unknown> }
  const withTypes = JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === 'clauseType' && value && typeof value === 'object'
      ? { ...value, enum: [...CLAUSE_TYPES] }
      : value,
  ) as Record<string, unknown>
  return {
    ...withTypes,
    $id: 'https://lexdesk.invalid/schemas/playbook.json',
    title: 'Lexdesk playbook',
  }
}
