/**
 * The local memo summariser (decision 0056): from a transcript's timed segments, the memo's key
 * points, decisions, action items (owner, due date) and the names mentioned, each citing its
 * segment. Rule-based and offline: wink-nlp (English lite web model) gives sentences, parts of
 * speech and date entities; decisions and actions are told by their wording; key points are the
 * most central sentences by LexRank (summary.ts) that compression (condense.ts) can shorten.
 */
import type { ItemSentence } from 'wink-nlp'
import { boundedWink } from '../shared/wink'
import type { TranscriptSegment } from '../speech/types'
import { summarize } from '../analyzer/local/summary'
import { condense, normalizeForCompare, withoutFillers } from './condense'
import type { MemoAction, MemoName, MemoPoint, MemoSummary } from './memo-summary'

const nlp = boundedWink(['sbd', 'pos', 'ner'])
const its = nlp.its

/** At most this many key points: a memo summary is read at a glance. */
const MAX_KEY_POINTS = 5

/** One sentence of the transcript, with the segment it belongs to and what wink found in it. */
interface Unit {
  text: string
  segment: number
  start: number
  /** Proper-noun runs in order ("Tom Baker"). */
  names: string[]
  /** Date and time expressions ("Friday", "next Tuesday"). */
  dates: string[]
}

/** Days, months and greetings that wink tags as proper nouns but that name no one. */
const NOT_NAMES = new Set(
  (
    'monday tuesday wednesday thursday friday saturday sunday january february march april may ' +
    'june july august september october november december okay ok hi hello thanks yes no so i um ' +
    'uh er erm ah hmm well right'
  ).split(' '),
)

const DECISION =
  /\b(?:we(?:'ve| have)?|i(?:'ve| have)?|they(?:'ve| have)?|the (?:team|client|partners?|board|firm|parties)(?: have| has)?|it (?:was|is|has been|'s))\s+(?:now\s+|finally\s+)?(?:agreed|decided|settled on|resolved|concluded|opted|chose|chosen)\b\s*(?:that\s+|to\s+|on\s+|upon\s+)?(.+)$/iu

const DECISION_PHRASE =
  /\b(?:the decision (?:is|was)|we(?:'re| are) going with|let's go with)\s+(?:that\s+|to\s+)?(.+)$/iu

// Lower-case "i" too: the local speech engine writes no capitals.
const SUBJECT = String.raw`([Ii]|[Ww]e|[Yy]ou|[Hh]e|[Ss]he|[Tt]hey|\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)`
const MODAL = String.raw`(?:'ll|’ll|\s+(?:will|shall|must|should|needs? to|has to|have to|(?:is|are|am) going to|(?:is|are) to|agreed to|promised to|(?:is|are) supposed to))`
const ACTION = new RegExp(
  String.raw`(^|.*?[\s,;:])${SUBJECT}${MODAL}\s+(?:also\s+|then\s+|now\s+|still\s+|definitely\s+)?(?!not\b|never\b|be\b|have\b|see\b|know\b|think\b|guess\b|probably\b|like\b|want\b)(\p{L}[\p{L}'-]*.*)$`,
  'u',
)

/** Spoken deadlines wink's entities can miss in lower-case transcripts. */
const DUE =
  /\b(?:by|before|until|no later than|on|due)\s+((?:next\s+|this\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|today|week|month|(?:the\s+)?end of (?:the\s+)?(?:day|week|month|year)|(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2}(?:st|nd|rd|th)?))\b|\b(tomorrow|tonight|next week|next month)\b/iu

/** A speaker who says who they are: "this is Anna Kay", "my name is Anna". */
const SELF_INTRODUCTION =
  /\b(?:[Tt]his is|[Mm]y name is|I am|I'm|[Ii]t's)\s+(\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)/u

/**
 * Summarises a memo. `segments` are the transcript's timed segments (seconds); returns the four
 * lists of MemoSummary, each item citing its segment's position and start, in transcript order
 * (key points too). No item's text equals (after lower-casing and dropping punctuation) a
 * sentence or segment of the transcript: such lines are left out. Empty or blank input gives
 * empty lists. Never throws; cost is linear in the transcript plus LexRank's quadratic pass over
 * at most 300 sentences.
 */
export function summarizeMemo(segments: readonly TranscriptSegment[]): MemoSummary {
  const units = segments.flatMap((segment, position) => unitsOf(segment, position))
  const names = namesOf(units)
  const speaker = speakerOf(units, names)
  const decisions: MemoPoint[] = []
  const actionItems: MemoAction[] = []
  const used = new Set<Unit>()
  let lastName: string | null = null
  for (const unit of units) {
    const decision = decisionOf(unit)
    if (decision) {
      decisions.push(decision.point)
      used.add(unit)
    }
    // Within a decision only what it decides can be an action: "we agreed that Tom will file",
    // not "we agreed to reject".
    const action = actionOf(decision ? { ...unit, text: decision.rest } : unit, {
      speaker,
      lastName,
      names,
    })
    if (action) {
      actionItems.push(action)
      used.add(unit)
    }
    lastName = unit.names.filter((n) => names.has(n.toLowerCase())).at(-1) ?? lastName
  }
  const copies = new Set([
    ...units.map((u) => normalizeForCompare(u.text)),
    ...segments.map((s) => normalizeForCompare(s.text)),
  ])
  const fresh = <T extends MemoPoint>(item: T) =>
    item.text !== '' && !copies.has(normalizeForCompare(item.text))
  return {
    keyPoints: keyPointsOf(units.filter((u) => !used.has(u))).filter(fresh),
    decisions: decisions.filter(fresh),
    actionItems: actionItems.filter(fresh),
    names: [...names.values()],
  }
}

function unitsOf(segment: TranscriptSegment, position: number): Unit[] {
  if (segment.text.trim() === '') return []
  const units: Unit[] = []
  nlp
    .readDoc(segment.text)
    .sentences()
    .each((sentence: ItemSentence) => {
      const text = sentence.out().trim()
      if (!/[\p{L}\p{N}]/u.test(text)) return
      const tokens = sentence.tokens().out() as string[]
      const pos = sentence.tokens().out(its.pos) as string[]
      const dates = (sentence.entities().out(its.detail) as { value: string; type: string }[])
        .filter((e) => e.type === 'DATE' || e.type === 'TIME')
        .map((e) => e.value)
      units.push({
        text,
        segment: position,
        start: segment.start,
        names: properNounRuns(tokens, pos),
        dates,
      })
    })
  return units
}

function properNounRuns(tokens: readonly string[], pos: readonly string[]): string[] {
  const runs: string[] = []
  let run: string[] = []
  tokens.forEach((token, i) => {
    const isName =
      pos[i] === 'PROPN' && /^\p{Lu}[\p{L}'-]+$/u.test(token) && !NOT_NAMES.has(token.toLowerCase())
    if (isName) run.push(token)
    if ((!isName || i === tokens.length - 1) && run.length > 0) {
      runs.push(run.join(' '))
      run = []
    }
  })
  return runs
}

/** Names by lower-cased name, first mention first; "Tom" after "Tom Baker" is the same person. */
function namesOf(units: readonly Unit[]): Map<string, MemoName> {
  const names = new Map<string, MemoName>()
  for (const unit of units)
    for (const name of unit.names) {
      const key = name.toLowerCase()
      const known = [...names.keys()].some((k) => k === key || k.split(' ').includes(key))
      if (!known) names.set(key, { name, segment: unit.segment, start: unit.start })
    }
  return names
}

function speakerOf(units: readonly Unit[], names: Map<string, MemoName>): string | null {
  for (const unit of units) {
    const match = SELF_INTRODUCTION.exec(unit.text)
    const name = match?.[1]
    if (name && names.has(name.toLowerCase())) return name
  }
  return null
}

/** The decision `unit` states, and the words after its "we agreed (that)" (what is decided). */
function decisionOf(unit: Unit): { point: MemoPoint; rest: string } | null {
  if (/\?\s*$/u.test(unit.text)) return null
  const rest = (DECISION.exec(unit.text) ?? DECISION_PHRASE.exec(unit.text))?.[1]
  if (!rest) return null
  const text = condense(rest)
  return text ? { point: { text, segment: unit.segment, start: unit.start }, rest } : null
}

interface Context {
  speaker: string | null
  lastName: string | null
  names: Map<string, MemoName>
}

function actionOf(unit: Unit, context: Context): MemoAction | null {
  const sentence = withoutFillers(unit.text)
  if (/\?\s*$/u.test(sentence)) return null
  const match = ACTION.exec(sentence)
  if (!match) return null
  const [, before = '', subject = '', rest = ''] = match
  // A condition or a report of the past is not a commitment: "if we will", "said she would".
  if (/\b(?:if|whether|unless|when)\s*$/iu.test(before)) return null
  const owner = ownerOf(subject, sentence, context)
  if (owner === undefined) return null
  const due = dueOf(rest, unit.dates)
  const task = condense(due ? removeDue(rest, due) : rest)
  if (!task) return null
  const text = `${owner ?? 'Unassigned'}: ${task.charAt(0).toLowerCase()}${task.slice(1)}${due ? ` (due ${due})` : ''}`
  return { text, task, owner, due, segment: unit.segment, start: unit.start }
}

/** The owner's name, null when it cannot be told, undefined when the subject is not a person. */
function ownerOf(subject: string, sentence: string, context: Context): string | null | undefined {
  const lower = subject.toLowerCase()
  if (lower === 'i') return context.speaker ?? 'Speaker'
  if (lower === 'we') return 'We'
  if (lower === 'you') {
    // "Anna, can you…" / "Anna, you will…": the person addressed.
    const addressed = /^(\p{Lu}[\p{L}'-]+),/u.exec(sentence)?.[1]
    return addressed && context.names.has(addressed.toLowerCase()) ? addressed : null
  }
  if (lower === 'he' || lower === 'she' || lower === 'they') return context.lastName
  const known = context.names.get(lower)
  if (known) return known.name
  const first = [...context.names.values()].find((n) => n.name.split(' ').includes(subject))
  return first ? subject : undefined
}

function dueOf(rest: string, dates: readonly string[]): string | null {
  const entity = dates.find((d) => rest.includes(d))
  // wink may take the preposition into the entity ("by March 3").
  if (entity) return entity.replace(/^(?:by|before|until|on|due)\s+/iu, '')
  const match = DUE.exec(rest)
  return match?.[1] ?? match?.[2] ?? null
}

function removeDue(rest: string, due: string): string {
  const escaped = due.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')
  return rest.replace(
    new RegExp(
      String.raw`\s*(?:,\s*)?(?:\b(?:by|before|until|no later than|on|due)\s+)?${escaped}`,
      'iu',
    ),
    '',
  )
}

function keyPointsOf(units: readonly Unit[]): MemoPoint[] {
  if (units.length === 0) return []
  let content = ''
  const spans = units.map((unit, i) => {
    if (i > 0) content += '\n'
    const start = content.length
    content += unit.text
    return { start, end: content.length, text: unit.text }
  })
  const chosen = summarize(content, spans, Math.min(MAX_KEY_POINTS, units.length)).sentences
  return chosen.flatMap((sentence) => {
    const unit = units[spans.findIndex((s) => s.start === sentence.start)]
    const text = condense(sentence.text)
    // Only what compression shortened is a point; a sentence it cannot shorten would be a copy.
    if (!unit || text.split(' ').length < 3) return []
    if (normalizeForCompare(text) === normalizeForCompare(sentence.text)) return []
    return [{ text, segment: unit.segment, start: unit.start }]
  })
}
