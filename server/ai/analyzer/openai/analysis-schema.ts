/**
 * What the OpenAI-compatible analysis engine asks a model for, as zod schemas (sent as a strict
 * JSON Schema, see structured-completion.ts) and the system prompt that explains them. The model
 * gives quotes, never offsets (models count characters badly); verify-findings.ts locates them.
 * The parts mirror the local engine's result: summary sentences and the deal sheet, CUAD clauses
 * and key terms, risks with the parties they bind. Strict JSON Schema wants every key present, so
 * a missing value is `null`, never an absent key.
 */
import { z } from 'zod'
import { DETECTED_CATEGORIES } from '../shared/cuad-taxonomy'
import { DEAL_SHEET_LABELS } from '../shared/deal-sheet-labels'
import { RISK_CODES } from '../shared/risk-codes'
import { DEAL_SHEET_KEYS, Severity, type AnalysisKind } from '../types'

const Quote = z.string().describe('A passage copied character for character from the contract.')

const QuotedTerm = z
  .object({ value: z.string(), quote: Quote })
  .nullable()
  .describe('The normalised value and the passage it was read from, or null when not stated.')

const SummaryPart = {
  summary: z
    .array(Quote)
    .describe('Sentences copied verbatim from the contract that together summarise it.'),
  dealSheet: z.object({
    lines: z
      .array(
        z.object({
          key: z.enum(DEAL_SHEET_KEYS),
          value: z
            .string()
            .nullable()
            .describe('What the contract says on this point, in a short phrase; null if silent.'),
          quotes: z.array(Quote),
        }),
      )
      .describe('One line per deal-sheet key.'),
    attention: z
      .array(z.object({ text: z.string(), quotes: z.array(Quote) }))
      .describe('Three to five points that most need a lawyer’s attention.'),
  }),
}

const ClausePart = {
  clauses: z.array(
    z.object({
      category: z.enum(DETECTED_CATEGORIES as [string, ...string[]]),
      quote: Quote,
      confidence: z.number().describe('0 to 1.'),
    }),
  ),
  keyTerms: z.object({
    parties: z.array(
      z.object({
        name: z.string(),
        definedTerm: z
          .string()
          .nullable()
          .describe('The label the contract defines for the party, e.g. "Licensor".'),
        role: z.string().nullable().describe('The generic role, e.g. Licensor, Customer.'),
        quote: Quote.describe('The party name as written in the contract.'),
      }),
    ),
    agreementDate: QuotedTerm,
    effectiveDate: QuotedTerm,
    expirationDate: QuotedTerm,
    governingLaw: QuotedTerm,
    renewalTerm: QuotedTerm,
    noticePeriod: QuotedTerm,
  }),
}

const RiskPart = {
  risks: z.array(
    z.object({
      code: z.enum(RISK_CODES),
      severity: Severity,
      title: z.string(),
      explanation: z.string().describe('One plain sentence on why it matters.'),
      binds: z.array(z.string()).describe('Names of the parties the passage burdens.'),
      quote: Quote.nullable().describe('The passage; null when the risk is a missing clause.'),
    }),
  ),
}

/** Every part at once: the type verify-findings.ts reads (a kind's answer holds some of them). */
export type ModelOutput = Partial<
  z.infer<z.ZodObject<typeof SummaryPart & typeof ClausePart & typeof RiskPart>>
>

/** Which parts `kind` asks for. */
export function partsOf(kind: AnalysisKind) {
  return {
    summary: kind === 'summarize' || kind === 'full',
    clauses: kind === 'clauses' || kind === 'full',
    risks: kind === 'risks' || kind === 'full',
  }
}

/** The schema of a `kind` answer: only the parts it asks for, each required. */
export function analysisSchema(kind: AnalysisKind): z.ZodType<ModelOutput> {
  const parts = partsOf(kind)
  const shape = {
    ...(parts.summary ? SummaryPart : {}),
    ...(parts.clauses ? ClausePart : {}),
    ...(parts.risks ? RiskPart : {}),
  }
  // The spread of optional parts types each key as possibly absent, which ModelOutput says.
  return z.object(shape) as unknown as z.ZodType<ModelOutput>
}

/** Where the part being read sits in the document, when it is read in several parts. */
export interface PartOf {
  index: number
  count: number
}

/**
 * The instructions for `kind`; `part` when the document is read in several parts, `ourParty`
 * when the firm said whom it acts for.
 */
export function analysisPrompt(
  kind: AnalysisKind,
  options: { part?: PartOf; ourParty?: string } = {},
): string {
  const parts = partsOf(kind)
  const { part, ourParty } = options
  const lines = [
    'You are a careful commercial contracts lawyer. Read the contract in the user message and answer with JSON of the given shape.',
    'Every quote must be copied character for character from the contract, never paraphrased, shortened with "..." or invented; cite the operative sentence that does what you say, never a heading, a definition, a recital or page numbering.',
  ]
  if (part)
    lines.push(
      `The user message is part ${part.index + 1} of ${part.count} of a longer contract: report only what this part says, and quote only from it.`,
    )
  if (parts.summary)
    lines.push(
      `"summary": ${part ? '1 to 3' : '3 to 7'} sentences that together summarise the contract.`,
      `"dealSheet.lines": one line for each key (${DEAL_SHEET_KEYS.map((k) => `${k} = ${DEAL_SHEET_LABELS[k]}`).join('; ')}); the value reads the clause (money as payer → payee, amount or basis, when; liability as whom a cap protects and its amount, or "no cap found"; assignment as who may assign, with whose consent, and change of control), with the quotes it was read from, or null with no quotes when the ${part ? 'part' : 'contract'} is silent.`,
      '"dealSheet.attention": the points that most need a lawyer’s attention, each with the quotes behind it (none for a point about something missing).',
    )
  if (parts.clauses)
    lines.push(
      '"clauses": each passage of a CUAD category the contract contains, with the category and your confidence.',
      '"keyTerms": the parties (individuals included) with the label each is defined as; dates as YYYY-MM-DD read from the dated preamble, "as of" or the signature lines; governing law as the jurisdiction name (e.g. "New York"); durations like "1 year" or "90 days".',
    )
  if (parts.risks) {
    lines.push(
      `"risks": passages that put a party at risk; code is one of the listed codes; binds lists the parties the passage burdens (a mutual clause binds both, one party's covenant binds that party only); quote is null only for a risk that a clause is missing${part ? ' from the whole contract' : ''}. A clause that removes a penalty, frees a party or deletes a restriction is not a risk.`,
    )
    if (ourParty)
      lines.push(
        `The firm acts for the party ${JSON.stringify(ourParty)}: rate a risk that binds only the other side "low", and one that binds this party by its effect on this party.`,
      )
  }
  return lines.join('\n')
}
