/**
 * A small legal lexicon for query expansion (decision 0117): groups of words and phrases that a
 * contract and the person asking about it use for one thing. People ask in plain words ("hand
 * back the papers", "poach our staff", "walk away from the deal") and contracts answer in
 * drafting words ("return the documents", "solicit employees", "terminate this Agreement");
 * WordNet links synonyms of one sense but not these (decision 76: "acquire" vs "received",
 * "representatives" vs "employees" were the worst ContractNLI hypotheses).
 *
 * Sources: the plain ↔ formal pairs are from the Federal Plain Language Guidelines (plainlanguage
 * .gov, rev. 2011, "Use simple words and phrases": commence → begin, furnish → give, terminate →
 * end, retain → keep, notify → tell, procure → get, remuneration → pay, solicit → ask for,
 * forfeit → give up, transmit → send, …), read in the other direction (a plain question finds
 * the formal clause). The legal groups (confidentiality, employees and representatives,
 * solicitation, reverse engineering, courts and law, compelled disclosure, injunctions,
 * assignment and change of control, public information, warranties, liability, licences,
 * ownership) were written by hand for Lexdesk from the clause categories of CUAD v1 (Hendrycks
 * et al. 2021) and ContractNLI (Koreeda & Manning 2021), in the vocabulary common US/UK
 * drafting uses for them (Adams, "A Manual of Style for Contract Drafting", 4th ed.). No group
 * was taken from an evaluation's evidence text.
 */
import { wordTokensOf } from './paraphrase/content-words'
import { wordTable } from '../ai/embedder/local/word-table'

/**
 * A word is plain (not contract vocabulary) when contracts use it less than once in 10,000 words:
 * its frequency in the contracts the local embedder was trained on (word-vectors.bin: CUAD and
 * ContractNLI's development NDAs), or absent from them. Contract words ("disclose",
 * "confidential", "representatives": hundreds per million) are what the clauses themselves say,
 * so expanding them only adds passages that merely share a topic (ContractNLI, decision 0117:
 * expanding every word lowered held-out recall@5); plain ones ("poach", "shred", "staff",
 * "lawsuit": under 100 per million) are what the clause does not say.
 */
const PLAIN_BELOW = 1e-4

/** Whether contracts rarely use `word` (lower case); see PLAIN_BELOW. */
function isPlain(word: string): boolean {
  const table = wordTable()
  const row = table.index.get(word)
  return row === undefined || (table.frequencies[row] ?? 0) < PLAIN_BELOW
}

/**
 * Each group: words and phrases (lower case, spaces between words) that say one thing in a
 * contract or about it. A query holding one plain member brings the other members of its groups.
 */
const GROUPS: readonly string[][] = [
  // Plain Language Guidelines pairs, grouped by what they mean in a contract.
  [
    'terminate',
    'termination',
    'end',
    'cancel',
    'cancellation',
    'discontinue',
    'walk away',
    'get out',
    'exit',
    'quit',
    'pull out',
  ],
  ['expiration', 'expiry', 'expire', 'lapse', 'run out', 'come to an end'],
  ['commence', 'commencement', 'begin', 'start', 'initiate', 'inception', 'kick off'],
  ['furnish', 'provide', 'give', 'deliver', 'supply', 'submit', 'render', 'hand over'],
  ['retain', 'keep', 'maintain', 'hold', 'store'],
  ['notify', 'notice', 'notification', 'tell', 'inform', 'advise', 'let know', 'warn', 'heads up'],
  [
    'require',
    'requirement',
    'must',
    'obligation',
    'obligate',
    'oblige',
    'compel',
    'duty',
    'bound',
    'have to',
  ],
  ['permit', 'allow', 'authorize', 'authorise', 'entitle', 'entitled', 'let', 'allowed'],
  ['procure', 'purchase', 'buy', 'acquire', 'obtain'],
  [
    'remuneration',
    'compensation',
    'pay',
    'payment',
    'fee',
    'consideration',
    'price',
    'charge',
    'cost',
  ],
  [
    'modify',
    'modification',
    'amend',
    'amendment',
    'change',
    'alter',
    'vary',
    'variation',
    'revise',
  ],
  ['assist', 'assistance', 'help', 'aid', 'cooperate', 'cooperation', 'support'],
  ['forfeit', 'waive', 'waiver', 'give up', 'lose', 'relinquish'],
  ['transmit', 'send', 'forward', 'deliver', 'mail', 'email'],
  ['subsequent', 'thereafter', 'later', 'afterwards'],
  [
    'prompt',
    'promptly',
    'immediately',
    'without delay',
    'forthwith',
    'quickly',
    'fast',
    'soon',
    'right away',
  ],
  ['utilize', 'use', 'exploit', 'make use'],
  // Confidentiality and its information.
  [
    'disclose',
    'disclosure',
    'reveal',
    'divulge',
    'share',
    'communicate',
    'pass on',
    'leak',
    'make known',
    'tell',
  ],
  [
    'confidential',
    'confidentiality',
    'secret',
    'secrecy',
    'private',
    'privacy',
    'proprietary',
    'non-public',
    'sensitive',
  ],
  ['information', 'data', 'material', 'materials', 'facts', 'knowledge', 'know-how', 'details'],
  ['document', 'documents', 'papers', 'records', 'files', 'copies', 'notes', 'materials'],
  ['copy', 'copies', 'reproduce', 'reproduction', 'duplicate', 'replicate', 'photocopy'],
  ['return', 'hand back', 'give back', 'send back', 'deliver up'],
  ['destroy', 'destruction', 'shred', 'erase', 'delete', 'purge', 'dispose', 'wipe', 'get rid'],
  ['receive', 'recipient', 'obtain', 'acquire', 'get', 'come into possession', 'learn'],
  ['third party', 'outsider', 'stranger', 'anyone else', 'someone else'],
  ['oral', 'orally', 'verbal', 'verbally', 'spoken', 'conversation'],
  ['written', 'writing', 'in writing', 'on paper'],
  [
    'public',
    'publicly',
    'public domain',
    'publicly available',
    'generally known',
    'everyone',
    'published',
    'common knowledge',
  ],
  [
    'independently developed',
    'develop',
    'developed',
    'create',
    'build',
    'built',
    'invent',
    'come up with',
  ],
  [
    'reverse engineer',
    'decompile',
    'disassemble',
    'take apart',
    'deconstruct',
    'dismantle',
    'pull apart',
  ],
  ['purpose', 'reason', 'goal', 'aim', 'objective'],
  ['survive', 'survival', 'continue', 'remain', 'last', 'outlive', 'after the end'],
  ['term', 'duration', 'period', 'years', 'months', 'how long'],
  // People.
  ['employee', 'employees', 'staff', 'personnel', 'workers', 'workforce', 'team', 'hires'],
  [
    'representatives',
    'agents',
    'advisers',
    'advisors',
    'consultants',
    'contractors',
    'officers',
    'directors',
    'lawyers',
    'accountants',
    'staff',
  ],
  ['solicit', 'solicitation', 'poach', 'recruit', 'hire', 'entice', 'induce', 'lure', 'headhunt'],
  ['employment', 'employ', 'job', 'hire', 'engage', 'work for'],
  ['party', 'parties', 'side', 'sides', 'signatory', 'counterparty'],
  [
    'affiliate',
    'affiliates',
    'subsidiary',
    'subsidiaries',
    'parent company',
    'group company',
    'sister company',
  ],
  // Disputes, law and remedies.
  ['court', 'courts', 'tribunal', 'judge', 'jurisdiction', 'forum', 'venue'],
  [
    'lawsuit',
    'suit',
    'sue',
    'litigation',
    'proceeding',
    'proceedings',
    'action',
    'claim',
    'dispute',
    'arbitration',
  ],
  ['law', 'laws', 'governed', 'governing', 'legislation', 'statute', 'rules', 'legal'],
  [
    'subpoena',
    'court order',
    'legal process',
    'required by law',
    'summons',
    'compelled',
    'regulator',
    'authority',
  ],
  [
    'injunction',
    'injunctive relief',
    'equitable relief',
    'specific performance',
    'restrain',
    'stop',
  ],
  ['remedy', 'remedies', 'relief', 'damages', 'recourse', 'compensation'],
  ['breach', 'violate', 'violation', 'break', 'default', 'infringe', 'infringement', 'fault'],
  // Contract mechanics.
  ['agreement', 'contract', 'deal', 'arrangement'],
  ['assign', 'assignment', 'transfer', 'novate', 'novation', 'delegate', 'hand over'],
  [
    'acquisition',
    'merger',
    'merge',
    'buyer',
    'acquirer',
    'purchaser',
    'successor',
    'change of control',
    'takeover',
    'sale of the company',
  ],
  [
    'consent',
    'approval',
    'approve',
    'permission',
    'authorization',
    'authorisation',
    'agree',
    'sign off',
  ],
  ['apply', 'applies', 'cover', 'covers', 'extend to', 'include', 'includes'],
  ['exclude', 'exclusion', 'except', 'exception', 'carve out', 'not apply'],
  [
    'entire agreement',
    'whole agreement',
    'supersede',
    'supersedes',
    'replace',
    'prior understandings',
  ],
  ['renew', 'renewal', 'extend', 'extension', 'roll over'],
  // Rights, risk and money.
  ['warranty', 'warranties', 'warrant', 'guarantee', 'promise', 'assurance', 'as is', 'accurate'],
  ['liability', 'liable', 'responsible', 'responsibility', 'accountable', 'on the hook'],
  ['indemnify', 'indemnification', 'indemnity', 'hold harmless', 'reimburse', 'make good'],
  ['limitation', 'limit', 'cap', 'ceiling', 'maximum'],
  ['license', 'licence', 'licensed', 'right to use', 'permission to use', 'grant'],
  ['ownership', 'own', 'owner', 'belong', 'belongs'],
  ['intellectual property', 'patent', 'copyright', 'trade secret', 'trademark', 'invention'],
  ['compete', 'competition', 'competitor', 'competing', 'non-compete', 'rival'],
  ['exclusive', 'exclusivity', 'sole', 'exclusively'],
  ['audit', 'inspect', 'inspection', 'examine', 'books and records'],
  ['insurance', 'insure', 'insured', 'coverage'],
]

/** A member's words as the query's tokens show them: lower case, letters and digits only. */
function wordsOf(text: string): string[] {
  return wordTokensOf(text).map((t) => t.word)
}

/**
 * Single-word members by their Porter2 stem (content words) or their word (stop words such as
 * "own"), and phrase members by their first word; each to the groups holding them.
 */
const BY_STEM = new Map<string, number[]>()
const PHRASES: Array<{ words: string[]; group: number }> = []
GROUPS.forEach((group, index) => {
  for (const member of group) {
    const tokens = wordTokensOf(member)
    if (tokens.length === 1) {
      const key = tokens[0]?.stem ?? tokens[0]?.word ?? ''
      BY_STEM.set(key, [...(BY_STEM.get(key) ?? []), index])
    } else PHRASES.push({ words: wordsOf(member), group: index })
  }
})

/**
 * The lexicon's terms for `query`: the members of every group one of its plain words (compared
 * by Porter2 stem; see PLAIN_BELOW) or phrases (word for word, plain by nature) belongs to, in
 * the groups' order, without repeats. [] for a query touching no group. Never throws (reads the
 * committed word vectors once).
 */
export function legalTerms(query: string): string[] {
  const tokens = wordTokensOf(query)
  const words = tokens.map((t) => t.word)
  const groups = new Set<number>()
  for (const token of tokens)
    if (isPlain(token.word))
      for (const group of BY_STEM.get(token.stem ?? token.word) ?? []) groups.add(group)
  for (const phrase of PHRASES)
    for (let i = 0; i + phrase.words.length <= words.length; i += 1)
      if (phrase.words.every((word, j) => words[i + j] === word)) groups.add(phrase.group)
  const out = new Set<string>()
  for (const group of [...groups].sort((a, b) => a - b))
    for (const member of GROUPS[group] ?? []) out.add(member)
  return [...out]
}
