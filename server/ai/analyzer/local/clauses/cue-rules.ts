/**
 * Phrasing cues per clause category: short regular expressions for the wording lawyers use
 * ("right of first refusal", "shall not assign ... without consent"). A cue is not a verdict; it
 * becomes one feature of the sentence classifier, which learns how much each cue is worth.
 * Cues were written from the CUAD category definitions (CUAD v1, The Atticus Project, Hendrycks
 * et al. 2021, CC BY 4.0) and general drafting practice, not from particular contracts.
 */

/** One regex per category; a sentence may match any number of them. Sentences are ~1 to 2k chars. */
export const CUE_RULES: Readonly<Record<string, RegExp>> = {
  'Governing Law':
    /\b(?:governed by|governing law|construed (?:and enforced )?(?:in accordance with|under)|laws of the (?:state|commonwealth|province) of)\b/i,
  'Most Favored Nation':
    /most[- ]favou?red[- ](?:nation|customer|licensee)|(?:no less|not less|at least as|more) favou?rable (?:terms|prices?|pricing|rates?)|(?:lower|lowest|better|best) (?:prices?|pricing|rates?|terms)[^.]{0,80}(?:any other|third part|other (?:customer|licensee|distributor)s?)|(?:terms|prices?|pricing|rates?|conditions)[^.]{0,60}(?:more|most) favou?rable[^.]{0,120}(?:any other|third part|other (?:customers?|licensees?|distributors?|purchasers?))|equal to or (?:better|lower|less) than[^.]{0,80}(?:any other|third part)|(?:extend|offer|make available)[^.]{0,60}(?:such|the same|equivalent) (?:more favou?rable |lower )?(?:terms|prices?|pricing|rates?)/i,
  'Competitive Restriction Exception':
    /(?:notwithstanding|except|exception|shall not (?:apply|prevent|restrict|prohibit|preclude|limit)|nothing (?:in|herein))[^.]{0,200}(?:compet|exclusiv|solicit)/i,
  'Non-Compete':
    /non-?compet|(?:not|nor|refrain from)[^.]{0,100}\bcompet(?:e|es|ing|itive)\b|competitive (?:products?|business|activit)/i,
  Exclusivity:
    /(?<!non-?)\bexclusive(?:ly)?\b(?! of\b)|sole (?:and exclusive )?(?:distributor|supplier|provider|source|reseller|agent)|(?:all|100%) of (?:its|their) (?:requirements|needs)|shall not[^.]{0,80}(?:appoint|authori[sz]e|engage)[^.]{0,60}(?:other|any|third)/i,
  'No-Solicit Of Customers':
    /solicit[^.]{0,150}(?:customers?|clients?|accounts?|suppliers?)|(?:customers?|clients?)[^.]{0,80}solicit|(?:induce|encourage|entice)[^.]{0,100}(?:customers?|clients?)[^.]{0,100}(?:terminate|cease|reduce|divert|withdraw)|(?:interfere|divert)[^.]{0,80}(?:customers?|clients?)/i,
  'No-Solicit Of Employees':
    /(?:solicit|hire|employ|recruit|engage)[^.]{0,150}(?:employees?|personnel|staff|consultants?|contractors?)\b/i,
  'Non-Disparagement':
    /disparag|derogatory|(?:harm|damage|injur)\w*[^.]{0,40}(?:reputation|goodwill)|negative (?:statements?|comments?|remarks?)/i,
  'Termination For Convenience':
    /terminat\w*[^.]{0,150}(?:for (?:any|no) reason|for convenience|without cause|at (?:any time|its (?:sole )?(?:discretion|option|convenience))|(?:upon|by giving|on|with|after)[^.]{0,40}(?:days?|months?)['’]? (?:prior )?(?:written )?notice)/i,
  'Rofr/Rofo/Rofn':
    /right of first (?:refusal|offer|negotiation)|first right (?:of|to) (?:refusal|negotiat|offer|purchase|acquire)|(?:option|right) to (?:purchase|acquire|negotiate)[^.]{0,80}(?:first|prior to|before)|offer[^.]{0,60}first to/i,
  'Change Of Control':
    /change (?:of|in) (?:control|ownership)|(?:merger|consolidation|acquisition|acquired)[^.]{0,150}(?:substantially all|voting|control|outstanding)|by operation of law/i,
  'Anti-Assignment':
    /(?:may|shall|will|can) not[^.]{0,80}\bassign|not be (?:assigned|assignable|transferred)|\bassign\w*[^.]{0,200}(?:prior )?(?:written )?(?:consent|approval)|no assignment|non-?assignable|(?:assignment|transfer)[^.]{0,60}(?:void|null)/i,
  'Revenue/Profit Sharing':
    /(?:revenue|profit)s?[- ]shar|(?:percent(?:age)?|%) of (?:the |all |such )?(?:net |gross )?(?:revenues?|sales|profits?|receipts|income|proceeds)|\broyalt(?:y|ies)\b|commissions?\b/i,
  'Price Restrictions':
    /(?:prices?|pricing|fees?|rates?)[^.]{0,100}(?:shall not|may not|will not|not to)[^.]{0,60}(?:increase|exceed|change|raise|adjust)|(?:no|not) (?:increase|raise|change)[^.]{0,40}(?:prices?|fees?|rates?)|price (?:protection|freeze|cap)|(?:prices?|pricing|fees?|rates?)[^.]{0,100}(?:shall not|may not|will not|not to)[^.]{0,60}(?:reduc|decreas|lower)|prices?[^.]{0,60}(?:shall|will) (?:remain|be) (?:fixed|firm|unchanged)|(?:increase|adjust)\w*[^.]{0,80}(?:not|no) (?:more|greater) than[^.]{0,40}(?:%|percent|once)/i,
  'Minimum Commitment':
    /minimum (?:purchase|order|quantit|commitment|annual|volume|amount|sales|royalt|fee|number|payment|guarantee)|(?:at least|not less than|no less than)[^.]{0,80}(?:units|per (?:year|month|quarter|annum)|each (?:year|month|quarter)|annually)/i,
  'Volume Restriction':
    /(?:exceed|in excess of|more than|up to|maximum|cap|limit)[^.]{0,80}(?:units|quantit|volume|number of (?:users|copies|units|seats|licenses))|(?:volume|quantity|usage) (?:limit|restrict|cap)|(?:exceed|excess of|above|over)[^.]{0,100}(?:additional|incremental|overage|excess) (?:fees?|charges?|payments?)|\boverage/i,
  'Ip Ownership Assignment':
    /(?:hereby )?(?:assigns?|transfers?|conveys?)[^.]{0,150}(?:right, title,? and interest|intellectual property)|(?:shall|will) (?:be|become|remain) the (?:sole (?:and exclusive )?|exclusive )?property of|works? made for hire|shall (?:solely )?own (?:all|any)/i,
  'Joint Ip Ownership':
    /\bjoint(?:ly)?[- ]own|\bco-?own|owned jointly|joint (?:intellectual property|inventions?|ip|patents?|technology|developments?|works?)\b/i,
  'License Grant':
    /\bgrants?\b[^.]{0,150}\b(?:licen[cs]e|sublicen[cs]e|right to (?:use|distribute|sell|market|reproduce|make))|licen[cs]e (?:is|are) (?:hereby )?granted|(?:is|are) (?:hereby )?licen[cs]ed/i,
  'Non-Transferable License':
    /non-?transferable|not (?:be )?transferable|non-?sub-?licens(?:e|able)|without the right to (?:sub-?licen[cs]e|transfer)|may not (?:sub-?licen[cs]e|transfer)/i,
  'Affiliate License-Licensor':
    /(?:licensor|its|their) affiliates?[^.]{0,120}(?:grants?|licen[cs]|intellectual property|patents?|technology)|(?:owned|controlled) by[^.]{0,40}affiliates?|(?:on behalf of|for) itself and (?:its|their) affiliates[^.]{0,80}(?:grants?|licen)|(?:licensor|company|supplier|owner)(?: and|,| or) (?:its|their) affiliates[^.]{0,40}(?:hereby )?grants?/i,
  'Affiliate License-Licensee':
    /(?:licen[cs]e|right)[^.]{0,150}(?:to|for) [^.]{0,60}\baffiliates?\b|sub-?licen[cs]e[^.]{0,80}affiliates?|affiliates?[^.]{0,60}(?:may|shall be (?:entitled|permitted)) (?:to )?(?:use|exercise)/i,
  'Unlimited/All-You-Can-Eat-License':
    /\bunlimited\b[^.]{0,40}(?:number|use|copies|users|runs|access|licen|seats|distribution)|(?:any|an unlimited) number of (?:copies|users|units|seats)|enterprise[- ]wide|all you can eat|(?:site|enterprise)[- ]licen[cs]e|without (?:limit|limitation|restriction) (?:as to|on) (?:the )?(?:number|volume|quantity)/i,
  'Irrevocable Or Perpetual License':
    /(?:irrevocable|perpetual)[^.]{0,120}licen|licen[cs]\w*[^.]{0,120}(?:irrevocable|perpetual|in perpetuity)/i,
  'Source Code Escrow':
    /escrow[^.]{0,150}(?:source code|deposit|release)|source code[^.]{0,150}escrow|escrow agent/i,
  'Post-Termination Services':
    /(?:after|following|upon|survive|on) (?:the )?(?:any )?(?:expiration|termination|expiry)[^.]{0,200}(?:continue|transition|sell[- ]?off|wind[- ]?down|return|support|purchase|deliver|remain)|transition (?:services|period|assistance)|sell[- ]?off period|surviv/i,
  'Audit Rights':
    /\baudit|inspect\w*[^.]{0,100}(?:books|records|facilit|premises|accounts)|(?:books|records|accounts)[^.]{0,150}(?:inspect|examin|review|cop(?:y|ies))/i,
  'Uncapped Liability':
    /(?:limitation|exclusion|cap)s? (?:of|on) (?:liability|damages)[^.]{0,200}(?:shall not|not) apply|shall not (?:limit|apply to)[^.]{0,150}(?:gross negligence|wil(?:l)?ful|indemnif|breach of (?:its )?confidential|infringement)|(?:except|excluding|other than)[^.]{0,60}(?:gross negligence|wil(?:l)?ful misconduct|indemnification obligations)/i,
  'Cap On Liability':
    /(?:liability|liable)[^.]{0,250}(?:exceed|in excess of|limited to|not to exceed|greater than|more than)|aggregate liability|maximum liability|in no event shall[^.]{0,150}(?:liable|liability)|(?:indirect|consequential|special|incidental|punitive) damages|no (?:action|claim)[^.]{0,100}(?:brought|commenced)[^.]{0,60}(?:years?|months?) after/i,
  'Liquidated Damages':
    /liquidated damages|as a penalty|(?:termination|cancellation|break[- ]?up|early termination) (?:fee|payment|charge)|late (?:fee|charge|payment charge)/i,
  'Warranty Duration':
    /warrant\w*[^.]{0,200}(?:for a period of|period of|\(\d+\) (?:days|months|years)|\d+ (?:days|months|years)|following (?:delivery|acceptance|shipment))|warranty period/i,
  Insurance: /\binsurance\b|\binsured\b|\binsurer/i,
  'Covenant Not To Sue':
    /(?:not|never|nor)[^.]{0,30}(?:sue|bring|commence|institute|assert|initiate)[^.]{0,100}(?:action|claims?|suits?|proceedings?)|(?:contest|challenge|dispute|attack|oppose)[^.]{0,100}(?:validity|ownership|title|enforceability)/i,
  'Third Party Beneficiary':
    /(?<!\b(?:no|not|any|nor) )(?:intended|express(?:ly)?(?: intended)?) (?:third[- ]party )?beneficiar|(?:shall|will|is|are) (?:be )?(?:an? )?(?:third[- ]party )?beneficiar\w* (?:of|to|under) (?:section|article|this section|the provisions)|(?:entitled|right) to enforce[^.]{0,80}(?:section|provision|terms?|agreement)/i,
  'Renewal Term':
    /\b(?:automatically|shall|will|may) (?:be )?(?:renew|extend)|renewal (?:term|period)|successive (?:periods?|terms?)|(?:additional|further) (?:periods?|terms?) of/i,
  'Notice Period To Terminate Renewal':
    /(?:notice|notif)\w*[^.]{0,150}(?:not to (?:renew|extend)|non-?renewal|(?:intent|intention|election|desire) not to|prior to the (?:end|expiration|expiry) of)|unless (?:either|a) party[^.]{0,80}notice/i,
}
