/**
 * Risks in a contract's commercial terms: liquidated damages, an assignment of intellectual
 * property, a minimum purchase commitment, a most-favoured-nation promise, a severance or exit fee
 * and an equity or funding commitment. Each is found by its usual wording or by a confident CUAD
 * clause of the same category (Liquidated Damages, Ip Ownership Assignment, Minimum Commitment,
 * Most Favored Nation; the last two have no CUAD category), and quotes its passage.
 */
import type { Clause, QuotedSpan, Risk, Severity } from '../types'
import { clauseEvidence, PRESENT_CATEGORY } from './clause-evidence'
import { assertedText } from './reading/asserted-text'
import { clauseEffect } from './reading/clause-effect'

/** A detected clause counts as evidence when the classifier is at least this sure (0..1). */
const CLAUSE_EVIDENCE = 0.75

interface CommercialRule {
  code: string
  severity: Severity
  title: string
  /** One plain sentence: why a reviewer should care. */
  explanation: string
  wording: RegExp
  /** Wording that, in the same sentence, shows the passage is something else. */
  unless?: RegExp
  /**
   * What the floor, fee or grant in a sentence or detected clause is about when it is not the
   * rule's kind (decision 0140): such a sentence only names the kind, and such a clause is set aside.
   */
  about?: RegExp
  /** The CUAD category whose confident clause also counts; absent when CUAD has none. */
  category?: string
}

const RULES: readonly CommercialRule[] = [
  {
    code: 'liquidated-damages',
    severity: 'high',
    title: 'Liquidated damages',
    explanation:
      'A fixed sum is owed on a breach whatever the actual loss, so the paying side cannot argue the damage down.',
    wording:
      /\bliquidated\s+damages\b|\b(?:pay|owe)\b[^.]{0,120}\bas\s+a\s+penalty\b|\bpenalty\s+(?:equal\s+to|of(?!\s+perjury)|in\s+the\s+amount\s+of)\b|\b(?:genuine\s+)?pre-?estimate\s+of\s+(?:the\s+)?(?:loss|damages?)\b|\bagreed\s+(?:sum|damages)\b[^.]{0,80}\bbreach|\b(?:in\s+(?:the\s+)?(?:event|case)\s+(?:of|that)|if|upon)\b[^.]{0,120}\b(?:breach\w*|violat\w*|in\s+default)\b[^.]{0,160}\b(?:shall|will|must|agrees?\s+to)\s+(?:\w+\s+){0,3}(?:pay|charge|forfeit)\b[^.]{0,120}\b(?:(?:an?\s+)?(?:amount|sum|fee|equivalent)\s+(?:equal\s+to|of)|[$€£]\s?\d)/i,
    /** Not a fixed sum: interest on late payment, or the actual costs of enforcing. */
    unless: /\binterest\b|\b(?:costs?|expenses|attorneys['’]?\s+fees)\s+(?:incurred|of\s+enforc)/i,
    category: 'Liquidated Damages',
  },
  {
    code: 'ip-assignment',
    severity: 'high',
    title: 'Assignment of intellectual property',
    explanation:
      'The assigning side gives up ownership of the intellectual property it creates or holds, and keeps only what the contract licenses back.',
    wording:
      /\b(?:hereby|shall|will|agrees?\s+to|irrevocably)\s+(?:irrevocably\s+)?(?:assigns?|transfers?|conveys?)\b[^.]{0,200}\b(?:right,?\s+title|intellectual\s+property|inventions?|work\s+product|copyrights?|patents?|deliverables|trade\s?marks?|domain\s+names?|rights?\s+(?:\(if\s+any\)\s+)?in\b)|\bwork(?:s)?\s+made\s+for\s+hire\b|\b(?:inventions?|intellectual\s+property|improvements?|discoveries|work\s+product|deliverables|ideas)\b[^.]{0,200}\b(?:(?:shall|will)\s+(?:become|be)\s+the\s+(?:sole\s+(?:and\s+exclusive\s+)?)?(?:property|owner)\s+of|(?:shall|will)\s+(?:belong|vest)\s+(?:exclusively\s+|solely\s+)?(?:in|to))\b|\b(?:is|shall\s+be)(?:,\s+and\s+shall\s+be,)?\s+the\s+sole\s+owner\s+of\s+all\s+(?:inventions?|intellectual\s+property|improvements?|work\s+product|deliverables)\b/i,
    // IP that stays with the party that made it ("Inventions made solely by employees of iBio shall
    // belong solely to iBio", "Adaptimmune Inventions shall be the sole property of Adaptimmune"),
    // or work denied to be made for hire: nothing passes to the counterparty (CUAD: IP "created by
    // one party become[s] the property of the counterparty"); the party's name may be in camel case
    // ("iBio"). Nor do rights or goodwill from a licensee's use of the licensor's marks returning
    // to the licensor (trade mark licence boilerplate, decision 0154).
    about:
      /\b([A-Z][\w-]+)(?:['’]s)?\s+(?:[A-Z][\w-]+\s+){0,2}(?:Inventions?|Improvements?|Intellectual\s+Property|IP|Technology|Know-How)["”]?\s+(?:shall|will)\s+(?:be|remain|belong|vest)\b[^.]{0,60}\b\1\b|\b(?:made|conceived|developed|created)\s+solely\s+by\s+(?:(?:the\s+)?(?:employees|personnel|agents|staff)\s+(?:of\s+)?)?([A-Z][\w-]+|[a-z][A-Z][\w-]*)[^.]{0,120}\b(?:belong|vest|property\s+of|owned\s+by)\b[^.]{0,40}\b\2\b|\bnot\s+(?:an?\s+)?["“]?works?\s+made\s+for\s+hire|\b(?:[Gg]oodwill|[Rr]ights?)\b[^.]{0,120}\b(?:use\s+of|using)\s+(?:the\s+)?(?:[\w'’]+\s+){0,2}(?:[Tt]rade\s?[Mm]arks?|(?:[Ll]icensed\s+)?[Mm]arks)\b|\b[Uu]se\s+of\s+the\s+[Ll]icensed\s+[Mm]arks\b/,
    category: 'Ip Ownership Assignment',
  },
  {
    code: 'minimum-commitment',
    severity: 'medium',
    title: 'Minimum commitment',
    explanation:
      'The committed side must buy, order or pay at least a set amount whether or not it needs it, so a downturn does not reduce what it owes.',
    wording:
      /\bminimum\s+(?:annual\s+|monthly\s+|quarterly\s+)?(?:purchase|order|quantit\w*|volume|commitment|royalt\w*|fees?|revenue|sales|payments?)\b|\btake[\s-]or[\s-]pay\b|\bminimum\s+(?:annual\s+)?guarantee\b|\bcommit\w*\s+(?:\w+\s+){0,3}(?:in\s+an\s+amount\s+of\s+)?(?:at\s+least|a\s+minimum\s+of|not\s+less\s+than)\b|\b(?:shall|will|agrees?\s+to)\s+(?:purchase|order|buy)\s+(?:at\s+least|not\s+less\s+than|a\s+minimum\s+of)\b|\bminimum\s+(?:\w+\s+)?guarantee\b|\bguaranteed\s+(?:\w+\s+){0,2}(?:fees?|payments?|minimum)\b|\bbinding\s+commitment\b[^.]{0,60}\b(?:purchase|buy|order)|\b(?:sales?|purchase|volume)\s+(?:targets?|quotas?)\b|\bquotas?\b|\b(?:fails?\s+to|does\s+not|do\s+not)\s+(?:achieve|meet|reach|attain)\b[^.]{0,80}\b(?:revenues?|sales|targets?|forecasts?|minimum)\b|\b(?:annual|yearly|monthly|quarterly)\s+minimum\b|\bminimum\s+(?:total\s+)?(?:charge|level)\b|\bguarantees?\s+(?:that\s+)?\w+\s+will\s+(?:deliver|provide|sell|purchase)\b|\bto\s+(?:sell|purchase|buy|order|deliver|provide)\s+(?:a\s+minimum\s+of|at\s+least|not\s+less\s+than)\s+\d|\b(?:shall|will)\s+(?:never|not)\s+be\s+(?:reduced\b[^.]{0,80}?\bto\s+)?less\s+than\s+(?:[$€£]|\[)|\b(?:shall|will|must|agrees?\s+to|guarantees?)\b[^.]{0,120}(?:\b(?:no|not)\s+less\s+than|\ba\s+minimum\s+of)\s+(?:[$€£]\s?)?(?:\d[\d,.]*|(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred)\b)(?![\d,.]|\s*(?:\(\s*[\d,.]+\s*\)\s*)?(?:calendar\s+|business\s+|working\s+|consecutive\s+)?(?:days?|weeks?|months?|years?|hours?)\b|\s*(?:\(\s*[\d,.]+\s*%?\s*\)\s*)?(?:%|percent))|\b(?:shall|will|must|agrees?\s+to)\s+(?:\w+\s+){0,3}(?:pay|spend|purchase|buy|order)\b[^.]{0,60}\bat\s+least\s+(?:[$€£]\s?\d|an\s+amount)|\b(?:shall|will|must|agrees?\s+to)\b[^.]{0,120}(?:\b(?:no|not)\s+less\s+than|\bat\s+least|\ba\s+minimum\s+of)\s+\d[\d,.]*\s+(?:hours?|days?|units?|tons?|tonnes?|shifts?)\s+(?:in\s+(?:each|any|every)|per|each|every|a)\s+(?:calendar\s+)?(?:year|month|quarter|week)\b/i,
    // A floor in hours or days is a period ("not less than 30 days' notice") unless it is a rate
    // ("6,000 hours in each year", "200 units per month"): a quantity to perform every period.
    /** Floors that are not commitments to buy or perform: notice, insurance, age, votes, a refusal of any minimum. */
    unless:
      /\b(?:insurance|coverage|polic(?:y|ies)|years?\s+of\s+age|net\s+worth|vote|quorum|notice)\b|\b(?:no|not\s+(?:be\s+)?subject\s+to\s+any)\s+minimum\b|\bno\s+guarantee\b|\bnothing\b[^.]{0,60}\bobligat/i,
    // A floor on meetings, records, a product's content or a shareholding, not on what is
    // bought, sold, made or paid ("shall meet a minimum of four times per calendar year", "maintain
    // such records for a minimum of three years", "must contain a minimum of six percent").
    about:
      /\bmeetings\b|\bmeeting\s+(?:shall|will|may)\s+be\s+held\b|\b(?:shall|will|must)\s+meet\s+(?:at\s+least|a\s+minimum|not\s+less|no\s+less|regularly|as\s+often)|\b(?:records|ownership|contain)\b/i,
    category: 'Minimum Commitment',
  },
  {
    code: 'most-favoured-nation',
    severity: 'medium',
    title: 'Most-favoured-nation promise',
    explanation:
      'The promising side must match any better price or terms it gives others, which limits how it can price for other customers.',
    wording:
      /\bmost[\s-]favou?red[\s-](?:nations?|customers?|licensee)\b|\b(?:no\s+less\s+favou?rable|at\s+least\s+as\s+favou?rable)\s+(?:than|as)\b[^.]{0,120}\b(?:terms?|prices?|pricing|rates?)\b|\b(?:terms?|prices?|pricing|rates?)\b[^.]{0,80}\b(?:no\s+less\s+favou?rable|at\s+least\s+as\s+favou?rable|more\s+favou?rable)\b/i,
    /**
     * Not a promise to match terms given to others: dealings with affiliates at arm's length, or an
     * offer to a third party on terms "no more favorable" than those refused (a right of first
     * refusal, CUAD's "Rofr/Rofo/Rofn").
     */
    unless: /\barm['’]?s[\s-]length\b|\b(?:no|not)\s+more\s+favou?rable\b/i,
    category: 'Most Favored Nation',
  },
  {
    code: 'severance-exit-fee',
    severity: 'high',
    title: 'Severance or exit fee',
    explanation:
      'Ending the relationship costs the paying side a set sum (severance, a break or early-termination fee), so leaving early is not free.',
    wording:
      /\b(?:early[\s-])?(?:termination|exit|break(?:age)?|cancell?ation|withdrawal)\s+(?:fee|charge|payment|penalty)\b|\bseverance\s+(?:pay(?:ment)?|benefits?|equal|of|in\s+an\s+amount)\b|\b(?:shall|will)\s+(?:pay|receive)\b[^.]{0,80}\bseverance\b/i,
    /** A severance tax on extracted oil or gas ("production, severance, … and similar Taxes"). */
    unless: /\bseverance\b[^.]{0,80}\btax(?:es)?\b/i,
  },
  {
    code: 'equity-funding-commitment',
    severity: 'high',
    title: 'Equity or funding commitment',
    explanation:
      'The committed side must put in money or take up shares (an investment, capital contribution or funding obligation), whatever the venture’s results.',
    wording:
      /\b(?:shall|will|agrees?\s+to|undertakes?\s+to|commits?\s+to)\s+(?:\w+\s+){0,3}(?:invest|fund|finance|subscribe\s+for|contribute|purchase\s+(?:\w+\s+){0,3}(?:shares|units|stock|equity))\b[^.]{0,160}(?:[$€£]\s?\d|\b\d[\d,.]*\s*(?:dollars|euros?|shares|units)\b|\bcapital\b|\bequity\b|\bbudget\b)|\bcapital\s+contributions?\b[^.]{0,120}\b(?:shall|will|must)\b|\b(?:shall|will|must)\b[^.]{0,120}\bcapital\s+contributions?\b/i,
  },
]

/**
 * At most one risk per rule, quoting the sentence with the rule's wording that the detector quotes
 * for the rule's category, else the detector's clause of the category when the wording matched
 * only other sentences, else the first with the wording (clauseEvidence, decision 0133); without
 * any, the most confident clause of its category. The wording is looked for in what a sentence asserts
 * (assertedText: "without any early termination penalty" asserts no fee), and a sentence an
 * amendment deletes imposes nothing (clauseEffect), decision 0110. `sentences` and `clauses` index
 * the same content. Never throws.
 */
export function commercialRisks(
  sentences: readonly QuotedSpan[],
  clauses: readonly Clause[],
): Risk[] {
  const risks: Risk[] = []
  for (const rule of RULES) {
    const rejects = (text: string): boolean =>
      rule.unless?.test(text) === true ||
      clauseEffect(text) === 'deletes' ||
      rule.about?.test(text) === true
    const named = sentences.filter(
      (s) =>
        rule.wording.test(assertedText(s.text)) &&
        !rule.unless?.test(s.text) &&
        clauseEffect(s.text) !== 'deletes',
    )
    // A sentence that only names the kind raises the risk on the detector's clause, at
    // PRESENT_CATEGORY rather than CLAUSE_EVIDENCE (re-anchoring, decision 0140).
    const floor = named.length > 0 ? PRESENT_CATEGORY : CLAUSE_EVIDENCE
    const passage =
      clauseEvidence(
        named.filter((s) => !rule.about?.test(s.text)),
        clauses,
        rule.category,
        rejects,
      ) ??
      clauses
        .filter(
          (c) =>
            rule.category &&
            c.category === rule.category &&
            c.confidence >= floor &&
            !rejects(c.text),
        )
        .sort((a, b) => b.confidence - a.confidence)[0]
    if (!passage) continue
    risks.push({
      code: rule.code,
      severity: rule.severity,
      title: rule.title,
      explanation: rule.explanation,
      start: passage.start,
      end: passage.end,
    })
  }
  return risks
}
