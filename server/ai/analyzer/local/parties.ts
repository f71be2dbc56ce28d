/**
 * Contracting parties from a contract's preamble, by drafting conventions (not from any file):
 * "between X, a Delaware corporation ("X"), and Y ("Y")", "BETWEEN: X ('the Manufacturer') AND: Y",
 * "Party A: X", "(1) X … (2) Y", and company names with a corporate suffix ("Inc.", "Ltd")
 * when no defined term closes them.
 */
import type { Party } from '../types'

/** How far into the document the preamble's opening may start, in characters (cover pages, contents). */
const OPENING_SEARCH_CHARS = 8_000

/** How long the party region may run when no recital or first clause ends it, in characters. */
const REGION_CHARS = 2_000

/** Roles a defined term can name; any other defined term is a short name ("Acme"). */
const ROLE_TERMS =
  /^(?:the\s+)?(licensor|licensee|sub-?licensee|distributor|supplier|customer|buyer|seller|purchaser|vendor|client|company|contractor|consultant|manufacturer|franchisor|franchisee|lender|borrower|employee|employer|executive|agent|principal|provider|service\s+provider|recipient|reseller|developer|publisher|sponsor|endorser|owner|operator|partner|shipper|carrier|producer|investor|member|landlord|tenant|lessor|lessee|party\s+[a-d]|bank|trust|fund|adviser|advisor|manager|marketer|collaborator|institution|university|affiliate|dealer|contract\s+manufacturer|talent|artist|sender|consignor|consignee)$/i

/** Defined terms that name the agreement, a date or the parties together, never one party. */
const NOT_A_PARTY_TERM =
  /\b(?:agreement|date|amendment|part(?:y|ies)|contract|term|effective|exhibit|schedule|services?|products?|territory|act|plan|offering|shares?|stock|program|project|sec|fdic|saif)\b/i

/** Corporate-form suffixes, as whole words (the trailing dot is optional). */
const COMPANY_SUFFIX_SOURCE =
  '(?:Inc|INC|Incorporated|INCORPORATED|L\\.?L\\.?C|Ltd|LTD|Limited|LIMITED|Corp|CORP|Corporation|CORPORATION|Company|COMPANY|Co\\.?,?\\s+Ltd|L\\.?L\\.?P|L\\.?P|GmbH\\s+&\\s+Co\\.?\\s+KG|GmbH|AG|S\\.\\s?A\\.\\s+de\\s+C\\.\\s?V|S\\.\\s?A|S\\.\\s?L|Sdn\\.?\\s+Bhd|Lda|N\\.\\s?V|B\\.\\s?V|plc|PLC|PTE\\.?,?\\s+LTD|Pty\\.?\\s+Ltd|S\\.?p\\.?A|S\\.?r\\.?l|S\\.\\s?[àÀ]\\.?\\s?[rR]\\.?\\s?[lL]|SE|A/S|AB|Oyj?|ApS|SARL|S\\.A\\.S|KG|Bhd|N\\.A)\\b\\.?'

const COMPANY_SUFFIX = new RegExp(`\\b${COMPANY_SUFFIX_SOURCE}`)

/** Space within a name: a wrapped line may break it, a blank line may not. */
const GAP = '(?:[ \\t]+|[ \\t]*\\n[ \\t]*)'

/** A company name ending in a corporate suffix: up to eight capitalised words before it. */
const COMPANY_NAME = new RegExp(
  `(?<![\\p{L}\\p{N}])((?:[\\p{Lu}\\p{N}][\\p{L}\\p{N}.&'’\\-]*,?${GAP}(?:(?:of|and|&|de|du|der|for|the)${GAP})?){1,8}?)${COMPANY_SUFFIX_SOURCE}`,
  'gu',
)

/** Where the party list starts: "between", "among", "BETWEEN:", "B E T W E E N", "Party A:", "(1)". */
const OPENING =
  /\b(?:by\s+and\s+)?(?:between|among(?:st)?)\b\s*:?|B\s+E\s+T\s+W\s+E\s+E\s+N\s*:?|^\s*(?:Party\s+A\s*:|\(1\)\s)|\bThis\s+[\w\s-]{0,60}?Agreement\b[^.]{0,120}?\b(?:is\s+)?(?:made|entered|executed|dated)\b|^[ \t]*(?:Ladies\s+and\s+Gentlemen|Gentlemen|Dear\s+(?:Sirs?|[^:\n]{1,60}))\s*:/im

/** Where the list starts after an opening: "between", "among", or "entered into by" (no "between"). */
const LIST_START =
  /\b(?:by\s+and\s+)?(?:between|among(?:st)?)\b\s*:?|B\s+E\s+T\s+W\s+E\s+E\s+N\s*:?|\b(?:entered\s+into|made|executed|signed)\b(?:(?!between|among)[^.;]){0,80}?\sby\b(?!\s+and\b)\s*:?/i

/** A letter agreement's salutation: the addressee named above it is a party. */
const SALUTATION =
  /^[ \t]*(?:Ladies\s+and\s+Gentlemen|Gentlemen|Dear\s+(?:Sirs?|[^:\n]{1,60}))\s*:/i

/** Where the party list ends: the recitals or the first clause. */
const REGION_END =
  /\b(?:WHEREAS|Whereas|RECITALS?|Recitals|W\s*I\s*T\s*N\s*E\s*S\s*S\s*E\s*T\s*H|NOW,?\s+THEREFORE|BACKGROUND|Background:|R\s+E\s+C\s+I\s+T\s+A\s+L\s+S|IN\s+CONSIDERATION|agree\s+as\s+follows|hereby\s+confirm)\b|\n\s*(?:1\.|ARTICLE\s+1|Article\s+1|SECTION\s+1)\s/

/** A defined-term parenthesis: ("Licensor"), (hereinafter "the Customer"), ('the Manufacturer'). */
const DEFINED_TERM =
  /\(\s*(?:each\s+|individually\s+|collectively,?\s+|hereinafter(?:\s+(?:referred\s+to\s+as|called|as))?\s*,?\s*|herein\s+(?:referred\s+to\s+as|called)?\s*|referred\s+to\s+(?:herein\s+)?as\s+|the\s+)*["“”'‘]((?:the\s+)?[^"“”'‘’()]{1,60}?)["“”'’][^)]{0,80}\)|\(\s*(?:as|hereinafter\s+(?:referred\s+to\s+as|called))\s+(?:the\s+)?([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2})\s*\)|\(\s*the\s+([A-Z][A-Za-z-]{2,}(?:\s+[A-Z][A-Za-z-]{2,})?)\s*\)/gi

/** "Party A: Name" and numbered "(1) Name", at the start of a line or of a column. */
const LABELLED_PARTY = /(?:^|\n|[ \t]{2,})[ \t]*(Party\s+[A-D]|\(\d\))\s*[:：]?\s*(?=\S)/gi

/** Text that ends a party's name: a description, an address, a registration, a bracket. */
const NAME_END = new RegExp(
  String.raw`,\s+(?:a|an|the|with|having|whose|located|organi[sz]ed|incorporated|residing|acting|on\s+behalf|of\s+\d|registered|company\s+(?:no|number|registration)|represented|[Ii]ndividual(?:ly)?)\b|\s+(?:a|an)\s+(?=[A-Z][a-z])|\((?![^()]{1,30}\)\s*${COMPANY_SUFFIX_SOURCE})|[;:"“]|\n\s*\n|,\s*\d|,\s*$|\s+(?:with|having|whose)\s+(?:its|a|an|offices?|principal|registered|place|address)\b|\s+(?:located|registered|incorporated|organi[sz]ed|residing|represented|acting)\b|\s+of\s+\d|\s+\d{1,5}\s+(?!${COMPANY_SUFFIX_SOURCE})[A-Z]|\s+(?:and|AND)\s*:|\s+-+\s*(?:and|AND)\b|\s+(?:of\s+the\s+(?:one|other|first|second)\s+part|on\s+the\s+one\s+hand)|,\s+(?:No\.?\s*\d|Level|Unit|Suite|Floor|Room|Building|Block|P\.?\s?O\.?\s+Box)\b|,?\s+(?:Reg(?:istration|istered)?\.?\s*(?:No|Number|Nr)|(?:Company|Registration|Registered)\s+(?:No|Number|Nr)|ACN|ABN|ARBN|CRN|KvK|HRB|HRA|RCS|SIREN|SIRET|CIF|NIF|NIPC|CVR|UEN|CIN)\b\.?\s*:?\s*\d|,\s+(?!${COMPANY_SUFFIX_SOURCE})\p{L}[\p{L}.'’-]*(?:\s+\p{L}[\p{L}.'’-]*){0,2}\s+\d{1,5}[a-z]?\s*,`,
  'u',
)

/** Corporate suffixes that always end a name ("Acme Inc. d/b/a Acme Stores" → "Acme Inc."). */
const STRICT_SUFFIX =
  /\b(?:Inc|INC|Incorporated|INCORPORATED|L\.?L\.?C|Corp|CORP|Corporation|CORPORATION|GmbH\s+&\s+Co\.?\s+KG|GmbH|plc|PLC|L\.?L\.?P|L\.P|S\.A\.\s+de\s+C\.V|S\.A|Sdn\.?\s+Bhd|B\.V|N\.V)\b\.?(?:,?\s*(?:Ltd|LTD|Limited|Inc|INC)\b\.?)?|\b(?:Co|CO)\.?,?\s+(?:Ltd|LTD)\b\.?|\b(?:Ltd|LTD|Limited|LIMITED)\b\.?/

/** Signs of an address: a post-office box, a five-digit postcode, street words. */
const ADDRESS =
  /\b(?:P\.?\s?O\.?\s+)?Box\s+\d|\b\d{5}\b|\b(?:Street|Avenue|Road|Suite|Floor|Boulevard|Blvd)\b/

/** A segment that starts by describing a party instead of naming one. */
const PARTY_DESCRIPTION =
  /^(?:(?:a|an)\s|(?:organi[sz]ed|incorporated|located|having|with|whose|residing|of\s+the\s+(?:one|other)\s+part|on\s+the\s+(?:one|other)\s+hand)\b)/i

/** Words that, leading a candidate, show it is a connector, a date or a heading and not a name. */
const NOT_A_NAME =
  /^(?:and|or|by|between|among|dated|date|the\s+date|this|these|that|party|parties|each|both|witnesseth|whereas|recitals?|address|attention|tel|fax|e-?mail|jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|exhibit|confidential|quicklinks|source|table\s+of\s+contents|page|introduction|background|preamble|recitals|covenanter|as|in|on|of|for|with|is|hereby|agent|consultant|company|end\s+date)\b|^\d+[\s,/.-]/i

/**
 * The parties named in the preamble, in order of appearance, without duplicates. Each name's span
 * indexes `content`; `definedTerm` and `role` are set when the preamble gives them. Linear in the
 * preamble's length; never throws.
 */
export function findParties(content: string): Party[] {
  const head = content.slice(0, OPENING_SEARCH_CHARS)
  const opening = OPENING.exec(head)
  let regionStart = opening
    ? opening.index + (/^\s*(?:\(1\)|Party\s+A)/i.test(opening[0]) ? 0 : opening[0].length)
    : 0
  // "This Agreement is made … by and between X and Y": the list starts after "between" (or "by").
  const listFrom = opening && /^This\b/i.test(opening[0]) ? opening.index : regionStart
  // A title's "… Agreement between A and B" gives way to the preamble's "between" after it, but
  // once a party has its defined term, a later "… Agreement between Heritage and Premier dated …"
  // (another agreement) does not move the list.
  const openedByList =
    opening !== null && /^(?:by\s+and\s+)?(?:between|among)|^B\s+E/i.test(opening[0])
  const later = LIST_START.exec(content.slice(listFrom, regionStart + 400))
  const between =
    later && openedByList && namesAParty(content.slice(regionStart, listFrom + later.index))
      ? null
      : later
  if (between) regionStart = Math.max(regionStart, listFrom + between.index + between[0].length)
  const tail = content.slice(regionStart, regionStart + REGION_CHARS)
  const endMatch = REGION_END.exec(tail)
  const regionEnd = regionStart + (endMatch && endMatch.index > 20 ? endMatch.index : tail.length)
  const parties: Party[] = []
  if (opening && SALUTATION.test(opening[0])) {
    // "Acme Securities, Inc. / 10 Main Street / Ladies and Gentlemen:": the addressee is a party.
    const addressee = addresseeOf(content, opening.index)
    if (addressee) addParty(parties, addressee)
  }
  for (const party of [
    ...labelledParties(content, regionStart, regionEnd),
    ...roleLineParties(content, regionStart, regionEnd),
    ...definedTermParties(content, regionStart, regionEnd),
  ])
    addParty(parties, party)
  if (parties.length < 2 && opening && !between && !openedByList) {
    // "X ("X") and Y ("Y") agree to … this Agreement dated …": the names precede the opening.
    const paragraphStart = content.lastIndexOf('\n\n', opening.index) + 1
    for (const party of definedTermParties(content, paragraphStart, opening.index))
      addParty(parties, party)
  }
  const cue = SIGNATORIES_ARE_PARTIES.exec(head.slice(0, SIGNATORIES_CUE_CHARS))
  // "The undersigned hereby agree …", "… and each person set forth on the signature page":
  // every signatory is a party, however many there are, and the fallbacks below are not needed.
  const signed = cue ? signatories(content, cue.index) : []
  for (const party of signed) addParty(parties, party)
  if (parties.length < 2 && signed.length === 0) {
    for (const party of companyNames(content, regionStart, regionEnd)) {
      if (parties.length >= 2) break
      addParty(parties, party)
    }
  }
  if (parties.length === 0 && (between || openedByList) && signed.length === 0) {
    // "… agreement between Acme.com and quarry labs.": bare names, no term and no suffix.
    for (const party of bareNames(content, regionStart)) addParty(parties, party)
  }
  if (parties.length < 2 && signed.length === 0) {
    // The signature blocks name the parties again: "ACME CORP.\n\nBy: ____\nName: …".
    for (const party of signatureParties(content)) {
      if (parties.length >= 2) break
      addParty(parties, party)
    }
  }
  return parties
    .map(withoutHeading)
    .filter((party): party is Party => party !== null && namesSomeone(party.name))
    .sort((a, b) => a.start - b.start)
}

/** How long a sentence of bare names after "between" may be, in characters. */
const BARE_LIST_CHARS = 160

/**
 * "between X and Y." read as two names when the sentence holds nothing else: each of one to five
 * words and name-like (partyName), or of one to three words in lower case as some brands are
 * written ("quarry labs"), the sentence ending at a full stop, semicolon or line end.
 */
function bareNames(content: string, from: number): Party[] {
  const sentence = /^[^;\n]*?(?=\.\s|[;\n]|$)/.exec(content.slice(from, from + BARE_LIST_CHARS))
  const pieces = sentence ? /^(\s*)(\S.*?)(\s+and\s+)(\S.*?)\s*$/.exec(sentence[0]) : null
  if (!pieces) return []
  const [, space = '', one = '', and = '', two = ''] = pieces
  const first = from + space.length
  const second = first + one.length + and.length
  const found = [bareName(content, first, one), bareName(content, second, two)]
  return found.every((p): p is Party => p !== null) ? found : []
}

/** One bare name of bareNames at `from`, or null. */
function bareName(content: string, from: number, text: string): Party | null {
  const named = partyName(content, from, from + text.length)
  if (named) return named.name.split(/\s+/).length <= 5 ? named : null
  const lower = /^[\p{Ll}\p{N}][\p{L}\p{N}.&'’-]*(?:\s+[\p{Ll}\p{N}][\p{L}\p{N}.&'’-]*){0,2}$/u
  if (!lower.test(text) || /^(?:the|a|an|its|their|each|both|all|any|us|you|we)\b/.test(text))
    return null
  if (NOT_A_NAME.test(text)) return null
  return { name: text, start: from, end: from + text.length }
}

/** Words that, with a corporate suffix, still name no one ("Investor and Company", "Co Ltd"). */
const GENERIC_WORD =
  /^(?:and|or|of|a|an|the|name|company|corporation|limited|co|ltd|inc|investor|party|parties)$/i

/** A month and day inside a name show a heading with a date, not a party. */
const MONTH_DAY =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|march|april|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}\b/i

/**
 * Whether a candidate names someone: not a heading ("RESELLER AGREEMENT", "… AGREEMENT January
 * 18"), not
 * only generic words and corporate suffixes ("Name of Company", "A Texas Corporation", "Co Ltd").
 */
function namesSomeone(name: string): boolean {
  if (MONTH_DAY.test(name) || /\bagreement$/i.test(name)) return false
  const words = name
    .replace(new RegExp(COMPANY_SUFFIX_SOURCE, 'g'), ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
  // "A Texas Corporation" describes a party; "A Seminole Indian Company" may name one.
  const states = /^(?:a|an)\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+corporation$/i
  return (
    !states.test(name) && words.some((word) => !GENERIC_WORD.test(word) && !ROLE_TERMS.test(word))
  )
}

/** `party` without a heading run into its name ("Cooperation Agreement Acme Ltd." → "Acme Ltd."). */
function withoutHeading(party: Party): Party | null {
  // "The parties to this Agreement are The Joint Corp.": the words up to the name go too.
  const heading = /^.*\b(?:[Aa]greement|AGREEMENT)\b[\s,:]+(?:\p{Ll}+\s+)*/u.exec(party.name)
  if (!heading) return party
  const name = party.name.slice(heading[0].length)
  if (!/^[\p{Lu}\p{N}]/u.test(name) || !COMPANY_SUFFIX.test(name)) return null
  return { ...party, name, start: party.end - name.length }
}

/**
 * A loan-out company's words before the individual whose services it provides, who is a party
 * too: "Acme LLC ("Lender"), for services of Jane Roe ("Artist")", "agent for", "f/s/o".
 */
const LOAN_OUT = String.raw`(?:agent\s+)?for\s+(?:the\s+)?services\s+of|f\/s\/o|agent\s+for`

/**
 * What joins one party to the next in a list: "and", "&", an enumerator "(b)", "(ii)", "(3)", a
 * loan-out's "for services of".
 */
const JOINER = new RegExp(
  String.raw`[\s,;](?:(?:and|AND|&)\s*:?|\((?:[a-h]|[ivx]{1,4}|\d{1,2})\)|${LOAN_OUT})\s+(?=\S)`,
  'g',
)

/** Whether `text` defines a term for a party ("Acme Inc. ("Acme")"), not for the agreement. */
function namesAParty(text: string): boolean {
  return [...text.matchAll(/\(\s*(?:the\s+)?["“'‘]([^"“”'’]{1,40})["”'’]/g)].some(
    (m) => !NOT_A_PARTY_TERM.test(m[1] ?? '') || ROLE_TERMS.test(m[1] ?? ''),
  )
}

/** Adds `party` unless a party with the same or a containing name is already there. */
function addParty(parties: Party[], party: Party): void {
  const key = comparable(party.name)
  const existing = parties.findIndex((p) => {
    const other = comparable(p.name)
    return other.includes(key) || key.includes(other)
  })
  if (existing < 0) parties.push(party)
  else if (!parties[existing]?.definedTerm && party.definedTerm) parties[existing] = party
}

function comparable(name: string): string {
  return ` ${name
    .toLowerCase()
    .replace(new RegExp(COMPANY_SUFFIX_SOURCE, 'gi'), ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `
}

/** Parties closed by a defined-term parenthesis; each name runs back to the previous one. */
function definedTermParties(content: string, from: number, to: number): Party[] {
  const parties: Party[] = []
  let segmentStart = from
  DEFINED_TERM.lastIndex = from
  for (
    let m = DEFINED_TERM.exec(content);
    m !== null && m.index < to;
    m = DEFINED_TERM.exec(content)
  ) {
    const term = (m[1] ?? m[2] ?? m[3] ?? '').trim()
    // Unquoted, "(as Company)" names a role only when capitalised ("(as amended)" does not), and
    // "(the COMPANY)", or "(the Executive)" as British drafting writes it, only when each word
    // is capitalised ("(the other party)" is not a term).
    if ((m[2] && !/^[A-Z]/.test(m[2])) || (m[3] && !/^(?:[A-Z][\w-]*\s*)+$/.test(m[3]))) continue
    const segment = segmentStart
    segmentStart = m.index + m[0].length
    if (/\bcollectively\b/i.test(m[0]) && /\bparties\b/i.test(term)) {
      // "X ("X"), A L.P., B Fund, LLC and Jane Roe (collectively, the "Roe Parties")": a group of
      // parties listed before its collective term; each member is a party.
      parties.push(...groupMembers(content, segment, m.index))
      continue
    }
    if (NOT_A_PARTY_TERM.test(term) && !ROLE_TERMS.test(term)) continue
    // "… is pleased to retain Jane Roe ("Consultant")": a role's name may end a clause.
    const party =
      partyName(content, segment, m.index) ??
      (ROLE_TERMS.test(term) ? nameEndingAt(content, segment, m.index) : null)
    if (!party) continue
    const termStart = m.index + m[0].indexOf(term)
    parties.push({
      ...party,
      definedTerm: { text: term, start: termStart, end: termStart + term.length },
      ...roleOf(term),
    })
  }
  return parties
}

/**
 * The run of two to five capitalised words that ends content[from, to) after a lower-case word
 * ("to retain Jane Roe"), or null.
 */
function nameEndingAt(content: string, from: number, to: number): Party | null {
  const run = /(?<=\p{Ll}\s+)(?:\p{Lu}[\p{L}.'’-]*\s+){1,4}\p{Lu}[\p{L}.'’-]*\s*$/u.exec(
    content.slice(from, to),
  )
  if (!run) return null
  const name = run[0].trim()
  if (NOT_A_NAME.test(name) || !namesSomeone(name)) return null
  const start = from + run.index
  return { name: name.replace(/\s+/g, ' '), start, end: start + name.length }
}

/**
 * The names listed in content[from, to), split at commas and "and" except before a corporate
 * suffix ("Fund, L.P."); roles ("Company and Consultant") and descriptions are not names.
 */
function groupMembers(content: string, from: number, to: number): Party[] {
  const members: Party[] = []
  const splitter = new RegExp(`,?\\s+and\\s+|,\\s+(?!${COMPANY_SUFFIX_SOURCE})`, 'g')
  const text = content.slice(from, to)
  let start = 0
  for (const m of [...text.matchAll(splitter), null]) {
    const end = m ? m.index : text.length
    const party = end > start ? partyName(content, from + start, from + end) : null
    if (party && !NOT_A_PARTY_TERM.test(party.name)) members.push(party)
    if (m) start = m.index + m[0].length
  }
  return members
}

/** "Party A: Name" or "(1) Name" at the start of a line; the label is the role. */
function labelledParties(content: string, from: number, to: number): Party[] {
  const region = content.slice(from, to)
  const parties: Party[] = []
  LABELLED_PARTY.lastIndex = 0
  for (let m = LABELLED_PARTY.exec(region); m !== null; m = LABELLED_PARTY.exec(region)) {
    const nameStart = from + m.index + m[0].length
    const lineEnd = content.indexOf('\n', nameStart)
    const party = partyName(content, nameStart, lineEnd < 0 ? to : Math.min(lineEnd, to))
    const label = (m[1] ?? '').replace(/\s+/g, ' ')
    if (party) parties.push({ ...party, ...(/^party/i.test(label) ? { role: label } : {}) })
  }
  return parties
}

/** A line's opening words, a possible role label: "Licensor:", "SHIPPER", "Service Provider:". */
const ROLE_LABEL = /^[ \t]*([A-Za-z]+)(?:[ \t]+([A-Za-z]+))?/

/**
 * Parties on lines labelled by their role, as forms outside the US lay them out: the label is a
 * role (ROLE_TERMS, one or two words) followed by a colon, or written in capitals; the name runs to
 * the line's end or its description (partyName) and must carry a corporate suffix. The label is
 * the party's role.
 */
function roleLineParties(content: string, from: number, to: number): Party[] {
  const parties: Party[] = []
  let lineStart = from
  while (lineStart < to) {
    const next = content.indexOf('\n', lineStart)
    const lineEnd = next < 0 || next > to ? to : next
    const label = roleLabel(content.slice(lineStart, lineEnd))
    if (label) {
      const party = partyName(content, lineStart + label.length, lineEnd)
      if (party && COMPANY_SUFFIX.test(party.name))
        parties.push({ ...party, ...roleOf(label.role) })
    }
    lineStart = lineEnd + 1
  }
  return parties
}

/** The role label opening `line` and its length with the colon, or null. */
function roleLabel(line: string): { role: string; length: number } | null {
  const m = ROLE_LABEL.exec(line)
  if (!m) return null
  const [whole, first = '', second] = m
  const firstEnd = whole.indexOf(first) + first.length
  const options = [
    ...(second ? [{ role: `${first} ${second}`, end: whole.length }] : []),
    { role: first, end: firstEnd },
  ]
  for (const { role, end } of options) {
    if (!ROLE_TERMS.test(role)) continue
    const colon = /^[ \t]*[:：]/.exec(line.slice(end))
    if (!colon && role !== role.toUpperCase()) return null
    return { role, length: end + (colon?.[0].length ?? 0) }
  }
  return null
}

/** Company names with a corporate suffix, not introduced as someone's parent or agent. */
function companyNames(content: string, from: number, to: number): Party[] {
  const region = content.slice(from, to)
  const parties: Party[] = []
  COMPANY_NAME.lastIndex = 0
  for (let m = COMPANY_NAME.exec(region); m !== null; m = COMPANY_NAME.exec(region)) {
    const before = region.slice(Math.max(0, m.index - 40), m.index)
    // "… a Delaware Corporation": a description of the party named before it, not a party.
    if (/\b(?:of|by|to|from|with|for|under|through|formerly|d\/b\/a|dba|a|an)\s*$/i.test(before))
      continue
    // A sentence's full stop after a suffix that is a whole word ("… Holdings LLC.") is not the name's.
    const name = m[0]
      .replace(/[\s,]+$/, '')
      .replace(
        /\b(LLC|LLP|LP|plc|PLC|GmbH|AG|SE|AB|Limited|LIMITED|Corporation|CORPORATION|Company|COMPANY)\.$/,
        '$1',
      )
    // "… Reno, NV 89501 and Juniper Holdings LLC": the name starts after the address's last number.
    const address = /^.*(?:^|\s)\d[\d-]*,?\s+(?:(?:and|AND|&)\s+)?/.exec(name)?.[0].length ?? 0
    const lead =
      address +
      (/^(?:(?:The|THE|This|THIS|And|AND)\s+)?/.exec(name.slice(address))?.[0].length ?? 0)
    const trimmed = name.slice(lead)
    if (NOT_A_NAME.test(trimmed) || trimmed.length < 4) continue
    const start = from + m.index + lead
    parties.push({ name: trimmed.replace(/\s+/g, ' '), start, end: start + trimmed.length })
  }
  return parties
}

/** How far from the end the signature blocks are looked for, in characters. */
const SIGNATURE_CHARS = 4_000

/** A signature line: "By:", "By /s/", "Signed by". */
const SIGNATURE_LINE = /^[ \t]*(?:By|BY|Signed\s+by|Signature)\s*[:/_]/gm

/**
 * Companies named in the signature blocks: the last line with a corporate suffix above each "By:"
 * line (at most three lines up, past "for and on behalf of"), in document order.
 */
function signatureParties(content: string): Party[] {
  const tailStart = Math.max(0, content.length - SIGNATURE_CHARS)
  const parties: Party[] = []
  SIGNATURE_LINE.lastIndex = tailStart
  for (let m = SIGNATURE_LINE.exec(content); m !== null; m = SIGNATURE_LINE.exec(content)) {
    let lineEnd = m.index - 1
    for (let seen = 0; seen < 3 && lineEnd > tailStart;) {
      const lineStart = content.lastIndexOf('\n', lineEnd - 1) + 1
      const line = content.slice(lineStart, lineEnd)
      lineEnd = lineStart - 1
      if (line.trim() === '') continue
      seen += 1
      const skipped =
        /^[ \t]*(?:(?:for\s+and\s+)?on\s+behalf\s+of|for)\s*:?\s*/i.exec(line)?.[0].length ?? 0
      // Blocks laid out side by side ("ACME CORP.      BETA LLC") name one party per column.
      let found = false
      for (const column of line.slice(skipped).matchAll(/\S+(?:[ ]{1,2}\S+)*/g)) {
        const text = column[0]
        if (!COMPANY_SUFFIX.test(text) || ADDRESS.test(text) || text.length > 100) continue
        const from = lineStart + skipped + column.index
        const party = partyName(content, from, from + text.length)
        if (party && !/^(?:by|name|title|date)\b/i.test(party.name)) parties.push(party)
        found = true
      }
      if (found) break
    }
  }
  return parties
}

/** How far into the document the cue that the signatories are the parties may stand. */
const SIGNATORIES_CUE_CHARS = 3_000

/** An opening that makes every signatory a party instead of naming them. */
const SIGNATORIES_ARE_PARTIES =
  /\b(?:the\s+undersigned\s+(?:hereby\s+)?(?:further\s+)?(?:agree|confirm|acknowledge)|each\s+(?:other\s+)?(?:of\s+the\s+)?(?:persons?|part(?:y|ies)|entit(?:y|ies))\s+(?:hereto\s+)?(?:set\s+forth|listed|identified|named)\s+on\s+the\s+signature\s+pages?)/i

/** Where the signature pages start: the testimonium, or a "Dated:" before the blocks. */
const SIGNATURES_START = /\bIN\s+(?:WITNESS|EVIDENCE)\s+WHEREOF\b|\bDATED\s*:/i

/** A signing mark that follows a signatory's name: "By:", "/s/", "Name:", a signature line. */
const SIGNING_MARK = /\b(?:By|BY)\s*:|\/s\/|\bName\s*:|_{3,}/

/** How far after a signatory's name its signing mark may stand, in characters. */
const SIGNING_MARK_CHARS = 150

/** How much text after the testimonium is read for signatories, in characters. */
const SIGNATORY_CHARS = 12_000

/** Titles and signing words that end a signature block; the next signatory starts after them. */
const BLOCK_END =
  /^.*\b(?:Signatory|President|Officer|Counsel|Director|Secretary|Treasurer|Member|Manager|Partner|Esq|Title|Name|Its|By)\b\.?[\s:,]*/

/**
 * Every company that signs: the names with a corporate suffix after the testimonium, except those
 * signing for another ("By: Acme GP LLC, its general partner"). A name in capitals is the run of
 * capitalised words before its suffix; otherwise it starts after the previous block's title
 * ("… Chief Financial Officer Acme Fund LP").
 */
function signatories(content: string, cue: number): Party[] {
  const start = SIGNATURES_START.exec(content.slice(cue))
  if (!start) return []
  const from = cue + start.index + start[0].length
  const region = content.slice(from, from + SIGNATORY_CHARS)
  const parties: Party[] = []
  COMPANY_NAME.lastIndex = 0
  for (let m = COMPANY_NAME.exec(region); m !== null; m = COMPANY_NAME.exec(region)) {
    const before = region.slice(Math.max(0, m.index - 12), m.index)
    // Signing for another ("By: Acme GP LLC"), a page footer ("[Acme Inc. - Signature Page]") or
    // the tail of a longer name ("Holdings I/II GP LLC", "Fund (Cayman) Management LP").
    if (/(?:\b(?:By|BY)\s*:?\s*|\[\s*|\)\s*)$/.test(before)) continue
    if (/[/&-]$/.test(before) && /^\p{L}/u.test(m[0])) continue
    let name = m[0].replace(/[\s,]+$/, '')
    // "… Authorized Signatory ATHENE USA CORPORATION": a name in capitals is its capitalised run.
    const suffix = new RegExp(`${COMPANY_SUFFIX_SOURCE}$`).exec(name)?.[0] ?? ''
    const words = name.slice(0, name.length - suffix.length).split(/(?<=\s)/)
    let first = words.length
    while (first > 0 && !/\p{Ll}/u.test(words[first - 1] ?? '')) first -= 1
    const run = words.slice(first).filter((word) => /\p{L}/u.test(word))
    const capitalised =
      (first === 0 || run.length >= 2) &&
      run.some((word) => /\p{Lu}{2}/u.test(word) && !/^[IVXL]+\W*$/.test(word.trim()))
    let lead = capitalised
      ? words.slice(0, first).join('').length
      : // "… Chief Financial Officer Acme Fund LP": the name starts after the last title.
        (BLOCK_END.exec(name)?.[0].length ?? 0)
    // A date or number before the name ("Dated: 4/8/2020 Acme Fund LP") is not part of it.
    lead += /^(?:[^\p{Lu}\s]\S*\s+)*/u.exec(name.slice(lead))?.[0].length ?? 0
    name = name.slice(lead)
    if (name.length < 4 || NOT_A_NAME.test(name) || !/^[\p{Lu}\p{N}]/u.test(name)) continue
    const after = m.index + m[0].length
    if (!SIGNING_MARK.test(region.slice(after, after + SIGNING_MARK_CHARS))) continue
    const start = from + m.index + lead
    parties.push({ name: name.replace(/\s+/g, ' '), start, end: start + name.length })
  }
  return parties
}

/** The company named on its own line in the address block above a salutation, or null. */
function addresseeOf(content: string, salutation: number): Party | null {
  const blockStart = Math.max(0, salutation - 400)
  const lines = content.slice(blockStart, salutation).split('\n')
  let offset = blockStart
  let found: Party | null = null
  for (const line of lines) {
    if (datesOnly(line)) found = null
    else if (!found && COMPANY_SUFFIX.test(line) && line.length < 160) {
      // "Keefe, Bruyette & Woods, Inc.  Investment Banking  10 South Wacker Drive": a block laid
      // out on one line keeps the name before its address.
      const party = partyName(content, offset, offset + line.length)
      if (party && COMPANY_SUFFIX.test(party.name) && !ADDRESS.test(party.name)) found = party
    }
    offset += line.length + 1
  }
  return found
}

function datesOnly(line: string): boolean {
  return /^\s*(?:[A-Z][a-z]+\.?\s+[_\d]{1,2},?\s+\d{4}|[\d/_-]+)\s*$/.test(line)
}

/** `{ role }` when the defined term names a generic role ("the Licensor" → "Licensor"). */
function roleOf(term: string): { role?: string } {
  const m = ROLE_TERMS.exec(term.trim())
  if (!m) return {}
  const role = (m[1] ?? '').replace(/\s+/g, ' ')
  return { role: role.charAt(0).toUpperCase() + role.slice(1) }
}

/**
 * What may precede a name in its segment: a joiner, "in favour of", an enumerator, "the", or a
 * loan-out's "for services of" / "agent for" / "f/s/o" before the individual it contracts for.
 */
const NAME_LEAD = new RegExp(
  String.raw`^[\s,;:.\-–—]*(?:(?:and|AND|&)\s*[:\-–—]*\s+|(?:in\s+favou?r\s+of|for\s+the\s+benefit\s+of|${LOAN_OUT})\s+)?(?:\(?(?:[a-h]|[ivx]{1,4}|\d{1,2})\)\s+)?(?:(?:the|THE)\s+(?=[A-Z]))?`,
)

/**
 * The party name at the start of content[from, to), without descriptions such as ", a ...
 * corporation" or an address. A single line break inside a name is a wrapped line (PDF text), so
 * only a blank line ends it.
 */
function partyName(content: string, from: number, to: number): Party | null {
  const segment = content.slice(from, to)
  const lead = NAME_LEAD.exec(segment)?.[0].length ?? 0
  const rest = segment.slice(lead)
  if (PARTY_DESCRIPTION.test(rest)) {
    // "X ("X"), a Delaware corporation, located at ... and Y ("Y")": the segment opens with the
    // previous party's description; this party's name follows its last "and" or "(c)".
    const joiners = [...segment.matchAll(JOINER)]
    const last = joiners[joiners.length - 1]
    return last ? partyName(content, from + last.index + last[0].length, to) : null
  }
  const cut = rest.search(NAME_END)
  let name = (cut >= 0 ? rest.slice(0, cut) : rest).replace(/[\s,\-–—]+$/, '')
  // A sentence's full stop is not part of the name; an abbreviation's ("K.K.", "Inc.") is.
  if (name.endsWith('.') && !/(?:\b\p{Lu}|\b(?:Inc|Ltd|Corp|Co|Bhd|Pty|Jr|Sr))\.$/u.test(name))
    name = name.slice(0, -1)
  const suffix = STRICT_SUFFIX.exec(rest)
  if (suffix && suffix.index + suffix[0].length <= name.length + 1)
    name = rest.slice(0, suffix.index + suffix[0].length).replace(/[\s,]+$/, '')
  if (ADDRESS.test(name)) {
    // "… 1440 Broadway, New York, NY 10018, and Beta LLC": an address before this party's name.
    const joiners = [...name.matchAll(/[\s,;](?:and|AND|&)\s*:?\s+(?=\S)/g)]
    const last = joiners[joiners.length - 1]
    return last ? partyName(content, from + lead + last.index + last[0].length, to) : null
  }
  const looksLikeName =
    /^[\p{Lu}\p{N}]/u.test(name) ||
    (COMPANY_SUFFIX.test(name) && /^\S*[.\d]/.test(name)) ||
    // Brand names that start in lower case: "mPhase", "eGain", "i-on interactive".
    /^\p{Ll}{1,2}(?:\p{Lu}|-\p{L})/u.test(name)
  if (name.length < 2 || name.length > 120 || !looksLikeName || NOT_A_NAME.test(name)) return null
  if (/\s(?:and|or|&)$/i.test(name) || ROLE_TERMS.test(name)) return null
  const start = from + lead
  return { name: name.replace(/\s+/g, ' '), start, end: start + name.length }
}
