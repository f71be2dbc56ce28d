/**
 * Rule-based contract risks: each rule reads the sentences, the detected CUAD clauses and the key
 * terms, and reports the passage that triggers it. The rules encode common review checklists for
 * commercial contracts (liability, indemnity, renewal, termination, restrictive covenants,
 * assignment, governing law); they flag passages for a lawyer, they do not give advice.
 */
import type { Clause, KeyTerms, Party, QuotedSpan, Risk, Span } from '../types'
import { ABSENT_CLAUSE } from '../shared/citations'
import { agreementTitle, contractKind } from './agreement-title'
import { isChangeOfControlRight, isNotAControlRight } from './change-of-control'
import { clauseEvidence, PRESENT_CATEGORY } from './clause-evidence'
import { commercialRisks } from './commercial-risks'
import { isOperativePassage } from './operative-passage'
import { blockKind } from './structure/block-kind'
import { evidenceSentences } from './structure/evidence-sentences'
import { assertedText } from './reading/asserted-text'
import { clauseEffect } from './reading/clause-effect'
import { ipAssignors } from './reading/ip-assignors'
import { readClause } from './reading/read-clause'
import { reconcileRisks, SHORT_NOTICE_DAYS } from './risk-consistency'
import { statedPeriod } from './stated-period'
import {
  EVERY_PARTY,
  orientRisk,
  otherParties,
  subjectParties,
  subjectTerm,
} from './risk-orientation'

/** Options of assessRisks. */
export interface RiskOptions {
  /** The firm's client among the parties (name, defined term or role); orients the risks. */
  ourParty?: string
}

/** A detected clause counts as evidence when the classifier is at least this sure (0..1). */
const CLAUSE_EVIDENCE = 0.75

const LIABILITY_LIMIT =
  /\blimitations?\s+(?:of|on)\s+(?:\w+\s+)?liabilit|\bin\s+no\s+event\s+(?:shall|will)\b[^.]{0,120}\bliab|\bnot\s+be\s+(?:held\s+)?liable\s+(?:\w+\s+){0,4}for\s+any\s+(?:\w+\s+){0,2}(?:indirect|special|incidental|consequential|punitive|exemplary|lost)|\b(?:aggregate|total|maximum|cumulative|entire)\s+liability\b|\bliability\b[^.]{0,120}\b(?:shall|will)\s+not\s+exceed\b/i

const LIABILITY_CAP =
  /\b(?:shall|will|may)\s+not\s+(?:in\s+the\s+aggregate\s+)?exceed\b|\b(?:aggregate|total|maximum|cumulative|entire)\s+liability\b|\bliabilit[^.]{0,160}\blimited\s+to\b|\bcap(?:ped)?\b/i

const EXPLICITLY_UNLIMITED =
  /\bunlimited\s+liability\b|\bliability\b[^.]{0,100}\b(?:is|be|remain)\s+unlimited\b/i

/**
 * Claims left outside a cap: "… shall not apply to …", "except for claims under Section 9"; not
 * the boilerplate "Except as expressly set forth in this Agreement, …", which carves out nothing.
 */
const LIABILITY_CARVE_OUT =
  /\bliabilit[^.]{0,200}\b(?:except|excluding|other\s+than)\s+(?:for\s+|with\s+respect\s+to\s+|in\s+respect\s+of\s+)?(?:any\s+)?(?:claims?|liabilit\w*|damages|losses|obligations?|breach\w*|(?:a\s+)?party['’]?s?\s+(?:indemnif\w*|confidential\w*))\b|^\W*(?:\(\w+\)\s*)?except\s+(?!as\s+(?:otherwise\s+|expressly\s+)*(?:set\s+forth|provided)\s+(?:in|by|under)\s+this\s+agreement)(?:for\s+|with\s+respect\s+to\s+)?[^,]{0,160},[^.]{0,200}\bliabilit|\b(?:limitations?|exclusions?)\s+(?:of|on)\s+liability\b[^.]{0,200}\b(?:shall|will)\s+not\s+apply\b|\bnothing\s+in\s+this\s+agreement\s+(?:shall|will)\s+(?:limit|exclude|restrict)\s+(?:[\w'’]+\s+){0,3}liabilit/i

const INDEMNITY = /\bindemnif(?:y|ies|ied|ication)\b|\bhold\s+(?:\w+\s+)?harmless\b/i

const BROAD_INDEMNITY =
  /\bany\s+and\s+all\b|\barising\s+(?:out\s+of|from|under)\s+or\s+(?:in\s+(?:any\s+way\s+)?)?(?:connect\w*|relat\w*)\s+(?:with\s+|to\s+)?(?:this\s+agreement|the\s+agreement)|\bhowsoever\b|\bregardless\s+of\b|\bwhether\s+or\s+not\b/i

const OWN_NEGLIGENCE =
  /\bregardless\s+of\s+(?:\w+\s+){0,3}(?:fault|negligence)|\b(?:including|even\s+if\s+caused\s+by)\s+(?:\w+\s+){0,4}(?:negligence|fault)\s+of\s+(?:the\s+)?indemni|\bsole\s+or\s+(?:concurrent|contributory)\s+negligence/i

/** A promise to indemnify: the indemnitor is the sentence's subject. */
const INDEMNITY_PROMISE =
  /\b(?:shall|will|agrees?\s+to|undertakes?\s+to)\s+(?:\w+\s+){0,2}(?:indemnify|defend\s+and\s+indemnify|defend,\s+indemnify|hold\s+harmless)\b/i

/** A party relieved of liability: "X shall not be liable for …", "X disclaims all liability". */
const LIABILITY_EXCLUSION =
  /\b(?:shall|will)\s+not\s+be\s+(?:held\s+)?(?:liable|responsible)\s+(?:\w+\s+){0,3}for\b|\b(?:shall|will)\s+have\s+no\s+liability\b|\bdisclaims?\s+(?:any\s+and\s+)?(?:all\s+)?liabilit|\bexcludes?\s+(?:all\s+)?(?:its\s+)?liabilit/i

/** Agreements under which the client pays for work and expects to own its results. */
const WORK_FOR_CLIENT_TITLE =
  /\b(?:consult\w*|services?|development|statement\s+of\s+work|work\s+for\s+hire|engagement|outsourc\w*|contractor)\b/i

/** Roles of the party that pays for the work ("Client", "Customer", "Company"). */
const CLIENT_ROLE = /\b(?:client|customer|company|buyer|purchaser|employer|owner)\b/i

/** A choice of law that names a jurisdiction: "governed by … the laws of the State of X", "Belgian law". */
const NAMED_LAW =
  /\b(?:governed|construed|governing\s+law)\b[^.]{0,160}(?:\blaws?\s+(?:in\s+force\s+in\s+|of\s+)(?:the\s+)?(?:(?:State|Commonwealth|Province|Kingdom|Republic|Federal\s+Republic|Grand\s+Duchy|Canton)\s+of\s+)?[A-Z][\p{L}]+|\b[A-Z][\p{L}]+(?:\s+[A-Z][\p{L}]+)?\s+law\b)/u

const AUTO_RENEWAL =
  /\b(?:automatic(?:ally)?\s+(?:be\s+)?(?:renew|extend)|renew(?:ed|s)?\s+automatically|extended\s+automatically|(?:shall|will)\s+(?:be\s+)?(?:renew|extend)\w*\b[^.]{0,160}\bunless\b|evergreen)/i

const TERMINATE = /\bmay\s+(?:at\s+any\s+time\s+)?terminate\b/i

const CONVENIENCE =
  /\bfor\s+(?:any\s+(?:reason|or\s+no\s+reason)|no\s+reason|convenience)|\bwithout\s+(?:cause|reason)\b|\bwith\s+or\s+without\s+cause\b|\bin\s+its\s+sole\s+discretion\b|\bat\s+(?:any\s+time|will)\b/i

/**
 * Words that name termination without cause outright, whatever else the sentence says; not "is
 * unable for any reason to cure", a failure to cure (for cause).
 */
const EXPLICIT_CONVENIENCE =
  /\bfor\s+(?:any|no)\s+reason(?!\s+to\b)|\bconvenience\b|\bwithout\s+(?:cause|reason)\b|\bwith\s+or\s+without\s+cause\b/i

/** "At any time" termination tied to a breach or insolvency is termination for cause. */
const FOR_CAUSE = /\b(?:breach\w*|default|insolven\w*|bankrupt\w*|fail(?:s|ure)\s+to|violat\w*)\b/i

/**
 * A right to end the contract that is no termination for convenience, whatever "at any time" or
 * "for any reason" says: by mutual consent (both must agree), at the end of the term (a
 * non-renewal, also "shall be renewed … unless terminated by either party upon notice"), or on events
 * listed after it ("as follows:", "if any of the following occur").
 */
const NOT_CONVENIENCE =
  /\b(?:by|upon|with)\s+(?:the\s+)?mutual\s+(?:written\s+)?(?:consent|agreement)\b|\bterminat\w*\s+(?:\w+\s+){0,4}(?:at|upon|on)\s+(?:the\s+)?(?:expiration|expiry|end)\s+of\s+(?:its|the|this|any|such)\b|\b(?:as\s+follows|any\s+of\s+the\s+following(?:\s+\w+){0,3})\s*:?\s*$|\brenew\w*\b[^.]{0,160}\bunless\s+(?:sooner\s+|earlier\s+)?terminated\b/i

/**
 * Exclusive dealing: exclusive rights or supply, dealing "exclusively" with one side, or a promise
 * not to buy from, appoint or engage anyone else; not "engage in" (harassment, an activity) and not
 * a ban on selling, leasing or transferring what is licensed to a third party (a transfer
 * restriction), decision 0154.
 */
const EXCLUSIVITY =
  /(?<!non\s{0,3}-?\s{0,3})\bexclusive\s+(?:worldwide\s+|world-wide\s+)?(?:rights?|licen[cs]e|distribut\w*|basis|suppl\w*|provider|agen\w*|resell\w*|dealer|territor\w*|arrangement|relationship|partner|sponsor)\b|\b(?:purchas|buy|obtain|sourc|sell|suppl|distribut|market|licens|order|deal|provid)\w*\s+(?:\w+\s+){0,3}exclusively\s+(?:from|to|through|with)\b|\b(?:shall|will)\s+not\s+(?:\w+\s+){0,3}(?:purchase|obtain|source|buy|appoint|engage(?!\s+in\b)|sell(?!,?\s+(?:or\s+)?(?:lease|lend|rent|transfer|assign|sublicense|hypothecate)\b))\b[^.]{0,100}\b(?:any\s+)?(?:(?<!\bor\s+)other(?!\s+than)|third|competing)\b/i

/**
 * "Exclusive" that binds no one to deal exclusively: exclusivity denied ("nothing … creates an
 * exclusive arrangement", "shall not be considered the exclusive provider"), exclusive ownership or control of a right ("sole and
 * exclusive property", "the exclusive right, but not the obligation, to prosecute"), or a recital.
 */
const NOT_EXCLUSIVE_DEALING =
  /\b(?:not|no|nothing)\b[^.]{0,60}\b(?:creat|constitut|establish|be\s+(?:considered|deemed|construed))\w*\b[^.]{0,40}\bexclusive\b|\bno\s+right\s+to\s+any\s+exclusive\b|\b(?:have|has|grants?|be)\s+no\s+exclusive\b|\bnot\s+be\s+(?:considered\s+)?(?:[\w'’]+\s+){0,3}exclusive\b|\bexclusive\s+(?:rights?\s+of\s+)?(?:ownership|property)\b|\bexclusive\s+rights?,?\s+(?:title|and\s+interests?)\b|\b(?:does|do|will|shall)\s+not(?:\s+and\s+(?:will|shall)\s+not)?\s+have\s+(?:any\s+)?exclusive\b|\bexclusive\s+right,?\s+(?:but\s+not\s+the\s+obligation|to\s+(?:prepare|prosecute|file|enforce|defend|control|remove|replace|change|maintain|register|bring|settle))\b|\bWHEREAS\b/i

const NON_COMPETE =
  /\bnon-?compet\w*|\bnot\s+(?:to\s+)?compete\b|\b(?:shall|will|may)\s+not\b[^.]{0,120}\b(?:compete|competing|competitive|competitor)\b|\bengage\s+in\s+(?:any\s+)?(?:business|activit\w*)\b[^.]{0,80}\bcompet/i

/** A sentence that frees a party to compete rather than forbidding it ("shall not be precluded from"). */
const FREEDOM_TO_COMPETE =
  /\b(?:shall|will|may)\s+not\s+be\s+(?:precluded|prevented|restricted|prohibited|limited)\b|\bnothing\s+in\s+this\b[^.]{0,160}\b(?:prevent|preclude|restrict|prohibit|limit)s?\b|\bfree\s+to\b/i

/**
 * "Non-compete" named but not promised here: a statement that a party is not bound by any
 * non-compete elsewhere ("is not subject to any noncompete … agreement"), or "non-competitive".
 */
const NOT_A_COVENANT =
  /\b(?:subject\s+to|under|party\s+to|bound\s+by)\s+any\b[^.]{0,100}\bnon-?\s?compet|\bnon-?\s?competitive\b|\bobligations?\s+of\s+(?:\w+\s+){0,3}non-?\s?compet/i

/**
 * Finds risks in a contract.
 *
 * `sentences` are document-ordered spans into `content`, `clauses` the detected CUAD clauses and
 * `keyTerms` the extracted key terms of the same content. Returns at most one risk per code,
 * sorted by start; each span is the triggering operative sentence (never a heading, the title, a
 * definition, a recital, the preamble, a signature block, page furniture or a survival list, see
 * evidenceSentences), or for an absent clause the empty span
 * at 0 with `absent: true`. Severity: high = open-ended financial exposure, medium = a
 * commercial restriction or exit right to negotiate, low = legal uncertainty or a burden on the
 * other side. Severity depends on the contract's kind (an employment agreement without a
 * limitation of liability is usual, so low). Risks that burden one side say whom they bind
 * (`binds`, from the passage's subject); with `options.ourParty` they are oriented: a restriction
 * binding our party keeps or raises its severity, one binding only the other side is low
 * (informational). Never throws.
 */
export function assessRisks(
  content: string,
  allSentences: readonly QuotedSpan[],
  allClauses: readonly Clause[],
  keyTerms: KeyTerms,
  options: RiskOptions = {},
): Risk[] {
  const kind = contractKind(agreementTitle(content)?.value ?? null)
  // Headings, the title, definitions, recitals, the preamble, signature blocks, page furniture
  // and survival lists only name a clause or a party: never evidence (decision 0110).
  const sentences = evidenceSentences(allSentences)
  const evidence = new Set(sentences.map((s) => s.start))
  const covered = new Set(allSentences.map((s) => s.start))
  const clauses = allClauses.filter(
    (c) =>
      (covered.has(c.start) ? evidence.has(c.start) : blockKind(c.text) === 'operative') &&
      isOperativePassage(c.text),
  )
  const parties = keyTerms.parties
  // Without a party list, a risk binding everyone still names its bearer: every party (mutual).
  const everyone = parties.length > 0 ? parties.map((p) => p.name) : [EVERY_PARTY]
  const soleParty = (text: string): string[] | null => {
    const named = parties.filter(
      (p) => subjectParties(text, [p]).length > 0 || text.includes(p.name),
    )
    if (named.length === 1 && named[0]) return [named[0].name]
    // No party list: the passage's own subject ("ORBITEX shall …") bears it.
    const subject = parties.length === 0 ? subjectTerm(text) : null
    return subject ? [subject] : null
  }
  const oriented = (risk: Risk, binds: string[], ifBindsUs = risk.severity): Risk =>
    orientRisk(risk, binds, parties, { ifBindsUs, ifBindsThem: 'low' }, options.ourParty)
  // Who a passage binds is its reading's subject (decision 0110), else the first party named
  // before its first verb; an IP assignment binds the party that gives the IP up.
  const bearers = (text: string): string[] => {
    const who = readClause(text, parties).who
    return who.length > 0 ? who : subjectParties(text, parties)
  }
  const bySubject = (risk: Risk, ifBindsUs?: Risk['severity']): Risk => {
    const text = content.slice(risk.start, risk.end)
    const assignors = risk.code === 'ip-assignment' ? ipAssignors(text, parties) : []
    return oriented(risk, assignors.length > 0 ? assignors : bearers(text), ifBindsUs)
  }
  const risks: Risk[] = [
    ...liabilityRisks(content, sentences, clauses).map((risk) =>
      oriented(
        kind === 'employment' && risk.code === 'liability-missing'
          ? { ...risk, severity: 'low' as const }
          : risk,
        risk.absent ? everyone : bearersOfLimit(content.slice(risk.start, risk.end), parties),
      ),
    ),
    ...indemnityRisks(sentences).map((risk) => bySubject(risk)),
    ...renewalRisks(sentences),
    ...terminationRisks(sentences, clauses).map((risk) => {
      // The holder of the right is the subject; the risk binds the other side.
      const holders = bearers(content.slice(risk.start, risk.end))
      const unilateral = holders.length === 1 && parties.length > 1
      const exposed = unilateral ? otherParties(holders, parties) : holders
      return oriented(
        unilateral
          ? {
              ...risk,
              code: 'termination-for-convenience-unilateral',
              title: 'One-sided termination for convenience',
              explanation: `Only ${holders[0]} may end the agreement without cause, so the other side’s revenue or supply can stop at short notice.`,
            }
          : risk,
        exposed,
        unilateral ? 'high' : risk.severity,
      )
    }),
    ...covenantRisks(sentences, clauses).map((risk) =>
      bySubject(risk, risk.code === 'non-compete' ? 'high' : risk.severity),
    ),
    ...commercialRisks(sentences, clauses).map((risk) => bySubject(risk)),
    ...oneSidedRisks(sentences, parties, bearers).map(({ risk, binds }) => oriented(risk, binds)),
  ]
  const title = agreementTitle(content)?.value ?? ''
  if (WORK_FOR_CLIENT_TITLE.test(title) && !risks.some((r) => r.code === 'ip-assignment')) {
    // Medium: without an assignment the contractor keeps what the client paid to have made, and the
    // client has at best an implied licence.
    const client = parties.filter((p) =>
      CLIENT_ROLE.test(`${p.role ?? ''} ${p.definedTerm?.text ?? ''}`),
    )
    risks.push(
      oriented(
        {
          code: 'ip-assignment-missing',
          severity: 'medium',
          title: 'No assignment of intellectual property',
          explanation:
            'This is an agreement for work done for a client, but no assignment of the intellectual property in the results was found: the clause is absent, so the contractor may keep ownership.',
          ...ABSENT_CLAUSE,
        },
        client.length === 1 ? client.map((p) => p.name) : parties.map((p) => p.name),
      ),
    )
  }
  const lawClause = clauses.find(
    (c) => c.category === 'Governing Law' && c.confidence >= CLAUSE_EVIDENCE,
  )
  // A clause that names its law ("Belgian law", "the laws of the Kingdom of Belgium") fixes it
  // even when the key-term reader did not normalise the name: no risk may contradict it.
  const lawNamed = sentences.some((s) => NAMED_LAW.test(s.text))
  if (lawNamed) {
    // The governing law is fixed; one the key terms name is checked in reconcileRisks.
  } else if (lawClause) {
    // A choice-of-law clause exists but names no single jurisdiction (e.g. "the state where suit
    // is filed"): less certain than a fixed choice, so still worth a look.
    risks.push({
      code: 'governing-law-unclear',
      severity: 'low',
      title: 'Governing law not fixed',
      explanation:
        'The governing-law clause does not name one jurisdiction, so which law applies may depend on where or by whom a claim is brought.',
      start: lawClause.start,
      end: lawClause.end,
    })
  } else {
    // Low: no direct exposure, but which law applies (and so how every clause reads) is left to
    // conflict-of-laws rules and can itself become a dispute.
    risks.push({
      code: 'governing-law-missing',
      severity: 'low',
      title: 'No governing law',
      explanation:
        'The contract does not appear to choose a governing law (the clause is absent or redacted), so a court would decide which law applies.',
      ...ABSENT_CLAUSE,
    })
  }
  return reconcileRisks(content, sentences, risks, keyTerms)
    .map((risk) =>
      // Without a subject, the one party the passage names bears it (or, with no party list, the
      // passage's subject); otherwise both sides do.
      risk.binds
        ? risk
        : oriented(risk, soleParty(content.slice(risk.start, risk.end)) ?? everyone),
    )
    .sort((a, b) => a.start - b.start || a.code.localeCompare(b.code))
}

function liabilityRisks(
  content: string,
  sentences: readonly QuotedSpan[],
  clauses: readonly Clause[],
): Risk[] {
  // "An unlimited liability company" names a company, not a liability (assertedText).
  const unlimited = sentences.find((s) => EXPLICITLY_UNLIMITED.test(assertedText(s.text)))
  if (unlimited) {
    // High: the contract says in terms that exposure has no ceiling.
    return [
      {
        code: 'liability-uncapped',
        severity: 'high',
        title: 'Unlimited liability',
        explanation: 'This passage leaves a party’s liability expressly unlimited.',
        ...spanOf(unlimited),
      },
    ]
  }
  const limits = sentences.filter((s) => LIABILITY_LIMIT.test(s.text))
  const hasCapClause = clauses.some(
    (c) => c.category === 'Cap On Liability' && c.confidence >= CLAUSE_EVIDENCE,
  )
  if (limits.length === 0 && !hasCapClause) {
    // High: without any limitation clause, damages are bounded only by the general law.
    return [
      {
        code: 'liability-missing',
        severity: 'high',
        title: 'No limitation of liability',
        explanation:
          'No limitation-of-liability clause was found: the clause is absent, so neither party’s liability is capped and indirect or consequential losses are not excluded.',
        ...ABSENT_CLAUSE,
      },
    ]
  }
  const carveOut = clauseEvidence(
    sentences.filter((s) => LIABILITY_CARVE_OUT.test(s.text)),
    clauses,
    'Uncapped Liability',
  )
  // The detector's "Cap On Liability" also covers exclusions of indirect damages, so only the
  // wording itself shows a monetary ceiling.
  const capped = limits.some((s) => LIABILITY_CAP.test(s.text))
  const first = limits[0]
  if (!capped && first) {
    // Medium: indirect losses are excluded, but direct damages still have no ceiling.
    return [
      {
        code: 'liability-uncapped',
        severity: 'medium',
        title: 'Liability limited but not capped',
        explanation:
          'Liability is limited (e.g. indirect damages excluded) but no monetary cap on direct damages was found.',
        ...spanOf(first),
      },
    ]
  }
  if (carveOut) {
    // Medium: the cap exists, but the carved-out claims (often indemnities or confidentiality) are open-ended.
    return [
      {
        code: 'liability-carve-out',
        severity: 'medium',
        title: 'Uncapped claims carved out of the cap',
        explanation:
          'Some claims are carved out of the limitation of liability and so remain uncapped, which can outweigh the cap itself; check which.',
        ...spanOf(carveOut),
      },
    ]
  }
  return []
}

function indemnityRisks(sentences: readonly QuotedSpan[]): Risk[] {
  const broad = sentences.find((s) => INDEMNITY.test(s.text) && BROAD_INDEMNITY.test(s.text))
  if (!broad) return []
  const ownNegligence = OWN_NEGLIGENCE.test(broad.text)
  return [
    {
      code: 'indemnity-broad',
      // High when the indemnity covers the indemnified party's own fault: the indemnitor insures
      // risks it cannot control. Otherwise medium: wide but tied to the indemnitor's sphere.
      severity: ownNegligence ? 'high' : 'medium',
      title: 'Broad indemnity',
      explanation: ownNegligence
        ? 'The indemnity extends to losses caused by the indemnified party’s own negligence or fault.'
        : 'The indemnity covers "any and all" losses or everything connected with the agreement, not only claims caused by the indemnifying party.',
      ...spanOf(broad),
    },
  ]
}

function renewalRisks(sentences: readonly QuotedSpan[]): Risk[] {
  const at = sentences.findIndex((s) => AUTO_RENEWAL.test(s.text))
  const renewal = sentences[at]
  if (!renewal) return []
  // The period is the one the cited clause states, or the sentence right after it, where the
  // opt-out often follows: the citation then takes in that sentence too, so that the period the
  // risk names is one its citation states. Key terms read elsewhere are checked afterwards
  // (reconcileRisks), never quoted here.
  const next = sentences[at + 1]
  const own = statedPeriod(renewal.text)
  const following = own ? null : next && statedPeriod(next.text)
  const period = own ?? following ?? null
  if (period && period.days > SHORT_NOTICE_DAYS) return []
  // Medium: the contract rolls over silently, and the window to stop it is brief or undefined, so
  // a missed calendar date commits the client to another full term.
  return [
    {
      code: 'auto-renewal-short-notice',
      severity: 'medium',
      title: 'Automatic renewal with short notice',
      explanation: period
        ? `The term renews automatically unless notice is given; the notice period is only ${period.words}.`
        : 'The term renews automatically and this clause states no notice period for stopping the renewal.',
      start: renewal.start,
      end: following && next ? next.end : renewal.end,
    },
  ]
}

function terminationRisks(sentences: readonly QuotedSpan[], clauses: readonly Clause[]): Risk[] {
  const matches = sentences.filter((s) => {
    if (!TERMINATE.test(s.text) || !CONVENIENCE.test(s.text)) return false
    return (
      !NOT_CONVENIENCE.test(s.text) &&
      (EXPLICIT_CONVENIENCE.test(s.text) || !FOR_CAUSE.test(s.text))
    )
  })
  // A detected clause that only gives a right to end for cause (a breach, an insolvency) with no
  // word of convenience is termination for cause, whatever the detector scores (decision 0140).
  const forCauseOnly = (text: string): boolean =>
    FOR_CAUSE.test(text) && !EXPLICIT_CONVENIENCE.test(text)
  const sentence =
    clauseEvidence(
      matches,
      clauses,
      'Termination For Convenience',
      (text) => !TERMINATE.test(text) || NOT_CONVENIENCE.test(text) || forCauseOnly(text),
    ) ??
    strongClause(
      clauses,
      'Termination For Convenience',
      (text) => NOT_CONVENIENCE.test(text) || forCauseOnly(text),
    )
  if (!sentence) return []
  // Medium: the contract can end early without fault, so expected revenue or supply is not secure;
  // severity depends on who holds the right, which only the reader knows.
  return [
    {
      code: 'termination-for-convenience',
      severity: 'medium',
      title: 'Termination for convenience',
      explanation:
        'A party may end the agreement without cause. If the right belongs to the other side, the client’s revenue or supply can stop at short notice.',
      ...spanOf(sentence),
    },
  ]
}

function covenantRisks(sentences: readonly QuotedSpan[], clauses: readonly Clause[]): Risk[] {
  const risks: Risk[] = []
  // A provision counts only for what it asserts and imposes: not one an amendment deletes, not a
  // denied scope ("non-exclusive"), not a freedom ("is free to compete"), decision 0110.
  const imposes = (text: string): boolean => clauseEffect(text) !== 'deletes'
  // What is left once "non-exclusive" is set aside must still say "exclusive(ly)": a caption
  // "Exclusivity." over a non-exclusive grant is none; nor is a freedom ("nothing … shall limit").
  const notExclusiveDealing = (text: string): boolean =>
    NOT_EXCLUSIVE_DEALING.test(text) ||
    !/\bexclusive(?:ly)?\b/i.test(assertedText(text)) ||
    readClause(text, []).freedom ||
    !imposes(text)
  const exclusivity =
    clauseEvidence(
      sentences.filter(
        (s) =>
          EXCLUSIVITY.test(assertedText(s.text)) &&
          !NOT_EXCLUSIVE_DEALING.test(s.text) &&
          imposes(s.text),
      ),
      clauses,
      'Exclusivity',
      notExclusiveDealing,
    ) ?? strongClause(clauses, 'Exclusivity', notExclusiveDealing)
  if (exclusivity) {
    // Medium: limits with whom a party may deal, a commercial restriction that can be priced in.
    risks.push({
      code: 'exclusivity',
      severity: 'medium',
      title: 'Exclusivity',
      explanation:
        'A party is bound to deal exclusively, which stops it working with others in the covered field.',
      ...spanOf(exclusivity),
    })
  }
  const notACovenant = (text: string): boolean =>
    FREEDOM_TO_COMPETE.test(text) ||
    NOT_A_COVENANT.test(text) ||
    readClause(text, []).freedom ||
    !imposes(text)
  // The wording's sentence must restrain: its main provision is a prohibition ("shall not engage",
  // "agrees not to compete"), not a grant, a statement or a duty that only names a non-compete
  // ("subject to the covenant not to compete in Section 8.3, Purchaser grants …").
  const restrains = (text: string): boolean => readClause(text, []).modality === 'must-not'
  const named = sentences.filter((s) => NON_COMPETE.test(s.text) && !notACovenant(s.text))
  const nonCompete =
    clauseEvidence(
      named.filter((s) => restrains(s.text)),
      clauses,
      'Non-Compete',
      notACovenant,
    ) ??
    // Only mentions ("the covenant not to compete in Section 8.3"): the risk stands on the
    // detector's clause of the category, never on the mention (re-anchoring, decision 0140).
    strongClause(
      clauses,
      'Non-Compete',
      notACovenant,
      named.length > 0 ? PRESENT_CATEGORY : undefined,
    )
  if (nonCompete) {
    // High: bars a line of business outright (often beyond the term) and may be unenforceable.
    risks.push({
      code: 'non-compete',
      severity: 'high',
      title: 'Non-compete',
      explanation:
        'A party may not compete in a business or territory; check its scope, duration and enforceability.',
      ...spanOf(nonCompete),
    })
  }
  const notAControlRight = (text: string): boolean => isNotAControlRight(text) || !imposes(text)
  const changeOfControl =
    clauseEvidence(
      sentences.filter((s) => isChangeOfControlRight(s.text) && imposes(s.text)),
      clauses,
      'Change Of Control',
      notAControlRight,
    ) ?? strongClause(clauses, 'Change Of Control', notAControlRight)
  if (changeOfControl) {
    // Medium: a merger or sale can trigger consent rights or termination, affecting deal value.
    risks.push({
      code: 'change-of-control',
      severity: 'medium',
      title: 'Change of control',
      explanation:
        'A merger, acquisition or change of control triggers consent, assignment or termination rights under this passage.',
      ...spanOf(changeOfControl),
    })
  }
  return risks
}

/**
 * Risks of a promise only one side makes: an indemnity given by one party alone (it binds the
 * indemnitor), and a party relieved of liability while the other is not (it binds the side that
 * cannot recover). A sentence whose subject is every party ("each party shall indemnify the
 * other") makes the promise mutual, so no risk.
 */
function oneSidedRisks(
  sentences: readonly QuotedSpan[],
  parties: readonly Party[],
  bearers: (text: string) => string[],
): { risk: Risk; binds: string[] }[] {
  if (parties.length < 2) return []
  const found: { risk: Risk; binds: string[] }[] = []
  const indemnities = sentences.filter((s) => INDEMNITY_PROMISE.test(s.text))
  const indemnitors = new Set(indemnities.flatMap((s) => bearers(s.text)))
  const first = indemnities[0]
  if (first && indemnitors.size === 1) {
    const [indemnitor] = [...indemnitors]
    // Medium: only one side insures the other against third-party claims.
    found.push({
      risk: {
        code: 'indemnity-one-sided',
        severity: 'medium',
        title: 'One-sided indemnity',
        explanation: `Only ${indemnitor} gives an indemnity; the other side gives none in return.`,
        ...spanOf(first),
      },
      binds: [indemnitor ?? ''],
    })
  }
  for (const sentence of sentences) {
    if (!LIABILITY_EXCLUSION.test(sentence.text)) continue
    const relieved = relievedParties(sentence.text, parties)
    if (relieved.length !== 1) continue
    // Medium: the other side bears these losses itself, with no claim against the relieved party.
    found.push({
      risk: {
        code: 'liability-exclusion',
        severity: 'medium',
        title: 'One-sided exclusion of liability',
        explanation: `${relieved[0]} is relieved of liability for these losses, so the other side bears them without recourse.`,
        ...spanOf(sentence),
      },
      binds: otherParties(relieved, parties),
    })
    break
  }
  return found
}

/** The parties a liability limit relieves: the subject, also of "In no event shall X be liable". */
function relievedParties(text: string, parties: readonly Party[]): string[] {
  return subjectParties(text.replace(/^.*?\bin\s+no\s+event\s+(?:shall|will)\s+/i, ''), parties)
}

/**
 * Who bears a limit on liability: the other side when it relieves one party, else every party
 * (a limit on "each party's" liability, or on nobody named, cuts both ways).
 */
function bearersOfLimit(text: string, parties: readonly Party[]): string[] {
  const relieved = relievedParties(text, parties)
  return relieved.length === 1 ? otherParties(relieved, parties) : parties.map((p) => p.name)
}

/**
 * The most confident detected clause of `category`, when confident enough to stand as evidence (at
 * `floor`, CLAUSE_EVIDENCE unless the caller's wording already names the category) and `unless`
 * does not reject its text (wording that shows the passage is something else).
 */
function strongClause(
  clauses: readonly Clause[],
  category: string,
  unless?: (text: string) => boolean,
  floor = CLAUSE_EVIDENCE,
): Clause | undefined {
  return clauses
    .filter((c) => c.category === category && c.confidence >= floor && !unless?.(c.text))
    .sort((a, b) => b.confidence - a.confidence)[0]
}

function spanOf(passage: Span): Span {
  return { start: passage.start, end: passage.end }
}
