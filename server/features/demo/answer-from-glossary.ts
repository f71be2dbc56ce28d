/**
 * The demo voice assistant's answer (issue 43, decision 0121): the contract glossary's entries the
 * question names (glossaryEntriesFor) are handed to the configured chat engine, the answerer the
 * assistant uses over a firm's documents, as its numbered passages; its [n] markers become the
 * cited entries. A question naming no entry is not sent to the engine: the answer says that no
 * entry covers it, so the demo never answers a different question than the one asked.
 */
import type { ChatEngine } from '../../ai/chat/types'
import { CONTRACT_GLOSSARY } from './contract-glossary'
import { glossaryEntriesFor } from './glossary-entries-for'

/** The demo's answer: its text, whether an entry answered it, the entries cited, the engine. */
export interface DemoAnswer {
  answer: string
  answered: boolean
  sources: { id: string; title: string }[]
  engine: string
}

/** Said when no glossary entry fits: what the glossary covers, a few of its terms as examples. */
export const NO_ENTRY_FITS = `None of the ${CONTRACT_GLOSSARY.length} entries of Lexdesk’s contract glossary covers this question, so it is not answered. The glossary explains the contract terms Lexdesk’s analysis reports, such as an NDA, indemnity, limitation of liability, governing law, termination for convenience or a non-compete: ask what one of them means.`

/** Appended to every answer from the glossary. */
const NOT_ADVICE = 'General information from Lexdesk’s contract glossary, not legal advice.'

/**
 * Answers `question` from the glossary through `chat`. Throws what the engine throws (the route
 * turns it into its fixed message); stops when `signal` aborts.
 */
export async function answerFromGlossary(
  chat: ChatEngine,
  question: string,
  signal?: AbortSignal,
): Promise<DemoAnswer> {
  const entries = glossaryEntriesFor(question)
  if (entries.length === 0)
    return { answer: NO_ENTRY_FITS, answered: false, sources: [], engine: chat.id }
  const passages = entries.map((entry, i) => ({
    n: i + 1,
    title: entry.title,
    content: entry.text,
  }))
  let text = ''
  for await (const delta of chat.answer([{ role: 'user', content: question }], passages, signal))
    text += delta
  const cited = entries.filter((_, i) => text.includes(`[${i + 1}]`))
  if (cited.length === 0)
    // The engine found nothing in the entries to cite: its words are not passed off as theirs.
    return { answer: NO_ENTRY_FITS, answered: false, sources: [], engine: chat.id }
  // The markers name the entries by title, so a listener hears where the answer comes from.
  const answer = text
    .replace(/\s*\[(\d+)\]/g, (marker, n: string) => {
      const entry = entries[Number(n) - 1]
      return entry ? ` (glossary: ${entry.title})` : ''
    })
    .trim()
  return {
    answer: `${answer}\n\n${NOT_ADVICE}`,
    answered: true,
    sources: cited.map((entry) => ({ id: `glossary:${entry.id}`, title: entry.title })),
    engine: chat.id,
  }
}
