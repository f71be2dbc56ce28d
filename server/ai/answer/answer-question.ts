/**
 * The local answering engine of the demo assistant: picks the built-in explanation whose keywords
 * best match the question (each keyword found adds its number of words, so phrases weigh more)
 * and answers with it, citing its title; when no explanation matches at least MIN_SCORE, it says
 * it cannot answer instead of guessing.
 */
import { LEGAL_EXPLANATIONS, type LegalExplanation } from './legal-explanations'

/** What the assistant answers: the text, whether it found an answer, and the cited sources. */
export interface Answer {
  answer: string
  answered: boolean
  sources: { id: string; title: string }[]
  engine: string
}

/** A question must match at least this keyword weight. */
const MIN_SCORE = 1

export const CANNOT_ANSWER =
  'I can only answer from a small built-in set of plain-language explanations, and none of them covers this question. Try asking about contracts, leases, wills, employment, non-disclosure agreements or court deadlines. This is general information, not legal advice.'

/** The best-matching explanation and its score, or null. */
export function bestExplanation(question: string): LegalExplanation | null {
  const text = ` ${question
    .toLowerCase()
    .replace(/[^a-z0-9'\s-]+/g, ' ')
    .replace(/\s+/g, ' ')} `
  let best: LegalExplanation | null = null
  let bestScore = 0
  for (const explanation of LEGAL_EXPLANATIONS) {
    const score = explanation.keywords
      .filter((k) => text.includes(` ${k} `))
      .reduce((sum, k) => sum + k.split(' ').length, 0)
    if (score > bestScore) {
      best = explanation
      bestScore = score
    }
  }
  return bestScore >= MIN_SCORE ? best : null
}

/** Answers `question` from the built-in explanations (no network, no model). */
export function answerLocally(question: string): Answer {
  const explanation = bestExplanation(question)
  if (!explanation) return { answer: CANNOT_ANSWER, answered: false, sources: [], engine: 'local' }
  return {
    answer: `${explanation.text} (Source: Lexdesk's built-in explanation "${explanation.title}". General information, not legal advice.)`,
    answered: true,
    sources: [{ id: explanation.id, title: explanation.title }],
    engine: 'local',
  }
}
