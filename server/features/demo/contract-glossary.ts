/**
 * Lexdesk's contract glossary: plain-language explanations of the contract terms its analysis
 * reports (the deal sheet's lines, the clause types of the local clause model — the CUAD
 * categories, Hendrycks et al. 2021 — and the risks it flags), written for the project as general
 * information, not legal advice. The public demo's voice assistant answers only from these
 * entries, citing the one it used (decision 0121). `terms` are the names a question uses for the
 * entry (lower case; the first is its title's); a question matches an entry only by one of them.
 */
export interface GlossaryEntry {
  /** Stable id, cited as `glossary:<id>`. */
  id: string
  /** The entry's heading, cited with the answer. */
  title: string
  /** Names of the term a question may use; never a generic word ("contract", "clause"). */
  terms: readonly string[]
  /** The explanation, two to four plain sentences. */
  text: string
}

export const CONTRACT_GLOSSARY: readonly GlossaryEntry[] = [
  {
    id: 'nda',
    title: 'Non-disclosure agreement (NDA)',
    terms: [
      'nda',
      'non-disclosure agreement',
      'nondisclosure agreement',
      'confidentiality agreement',
      'non disclosure agreement',
    ],
    text: 'A non-disclosure agreement is a contract in which one or both parties promise to keep the information the other shares confidential and to use it only for an agreed purpose, such as evaluating a deal. It usually defines what counts as confidential, lists exceptions (information already public or independently developed), says how long the duty lasts, and requires the information to be returned or destroyed at the end.',
  },
  {
    id: 'confidentiality',
    title: 'Confidentiality clause',
    terms: [
      'confidentiality',
      'confidential information',
      'confidentiality clause',
      'confidentiality obligation',
    ],
    text: 'A confidentiality clause obliges a party not to disclose the other party’s confidential information and to use it only for the contract’s purpose. Lexdesk’s deal sheet reports whether the contract has one and how long it lasts; a duty that survives the end of the contract is common.',
  },
  {
    id: 'parties',
    title: 'Parties',
    terms: ['parties', 'party', 'counterparty'],
    text: 'The parties are the people or companies bound by the contract, usually named with their legal form and address in its opening lines, often with a short defined name such as “the Supplier”. Lexdesk reads them from the contract and lets you say which party your firm acts for, so each risk says whom it binds.',
  },
  {
    id: 'effective-date',
    title: 'Effective date',
    terms: ['effective date', 'commencement date', 'start date', 'agreement date'],
    text: 'The effective date is the day the contract’s obligations begin, which may differ from the day it was signed (the agreement date). The deal sheet shows both when the contract states them.',
  },
  {
    id: 'term',
    title: 'Term and renewal',
    terms: [
      'term of the agreement',
      'initial term',
      'renewal term',
      'renewal',
      'auto-renewal',
      'automatic renewal',
      'evergreen',
      'duration of the agreement',
      'how long does the contract last',
    ],
    text: 'The term is how long the contract lasts. Many contracts renew automatically for further periods unless a party gives notice before a deadline; Lexdesk flags an automatic renewal whose notice period is short, because it is easy to miss.',
  },
  {
    id: 'termination',
    title: 'Termination',
    terms: [
      'termination',
      'terminate',
      'termination clause',
      'end the agreement',
      'cancel the contract',
    ],
    text: 'A termination clause says how and when a party may end the contract: at the end of its term, for the other party’s material breach (often after a cure period), on insolvency, or in some contracts at will. It also says what survives the end, such as confidentiality and payment of sums already due.',
  },
  {
    id: 'termination-for-convenience',
    title: 'Termination for convenience',
    terms: [
      'termination for convenience',
      'terminate for convenience',
      'terminate at will',
      'termination without cause',
    ],
    text: 'Termination for convenience lets a party end the contract without any breach by the other, usually on written notice. Lexdesk flags it as a risk when only one side holds the right, because the other may lose the deal at short notice.',
  },
  {
    id: 'notice-period',
    title: 'Notice period',
    terms: [
      'notice period',
      'notice to terminate',
      'notice of non-renewal',
      'prior written notice',
    ],
    text: 'A notice period is the time a party must warn the other before ending or not renewing the contract, for example ninety days before the renewal date. Missing it can bind the firm’s client for another full term.',
  },
  {
    id: 'limitation-of-liability',
    title: 'Limitation of liability',
    terms: [
      'limitation of liability',
      'liability cap',
      'cap on liability',
      'limit of liability',
      'limited liability clause',
      'cap',
    ],
    text: 'A limitation of liability clause caps what one party can recover from the other, often at the fees paid in the last twelve months, and may exclude indirect losses such as lost profits. Lexdesk reports the cap and flags a contract with no cap, or with claims carved out of it.',
  },
  {
    id: 'unlimited-liability',
    title: 'Unlimited liability',
    terms: ['unlimited liability', 'uncapped liability', 'uncapped'],
    text: 'Liability is unlimited when no clause caps what a party may owe, or when some claims (often breach of confidentiality, data protection or indemnities) are expressly left outside the cap. Lexdesk flags it because a single claim could exceed the contract’s value many times over.',
  },
  {
    id: 'exclusion-of-liability',
    title: 'Exclusion of liability',
    terms: [
      'exclusion of liability',
      'exclusion clause',
      'excluded losses',
      'indirect losses',
      'consequential damages',
      'consequential loss',
    ],
    text: 'An exclusion clause removes liability for certain kinds of loss altogether, typically indirect or consequential losses and lost profits. Lexdesk flags an exclusion that protects only one side.',
  },
  {
    id: 'indemnity',
    title: 'Indemnity',
    terms: ['indemnity', 'indemnification', 'indemnify', 'hold harmless'],
    text: 'An indemnity is a promise to cover the other party’s losses from a stated cause, such as third-party claims that a product infringes someone’s rights, whether or not the indemnifying party was at fault. Lexdesk flags indemnities that are broad or run one way only.',
  },
  {
    id: 'liquidated-damages',
    title: 'Liquidated damages',
    terms: ['liquidated damages', 'penalty clause', 'service credits'],
    text: 'Liquidated damages are a sum fixed in advance that a party pays for a stated breach, such as a day of delay, instead of proving the actual loss. Courts usually enforce them when they are a genuine pre-estimate of loss and not a penalty.',
  },
  {
    id: 'governing-law',
    title: 'Governing law',
    terms: [
      'governing law',
      'choice of law',
      'applicable law',
      'which law applies',
      'which law governs',
      'jurisdiction',
    ],
    text: 'The governing law clause chooses the legal system whose rules interpret the contract, for example the laws of England and Wales or of the State of New York; a jurisdiction clause chooses whose courts hear disputes. Lexdesk reports both and flags a contract that fixes neither.',
  },
  {
    id: 'assignment',
    title: 'Assignment',
    terms: [
      'assignment',
      'anti-assignment',
      'assign the contract',
      'assign the agreement',
      'transfer the contract',
    ],
    text: 'Assignment is the transfer of a party’s rights (and, with the other’s agreement, its obligations) under the contract to someone else. Many contracts forbid it without the other party’s written consent, sometimes with an exception for affiliates or a sale of the business.',
  },
  {
    id: 'change-of-control',
    title: 'Change of control',
    terms: ['change of control', 'change in control'],
    text: 'A change of control clause lets a party end or renegotiate the contract when the other is acquired or its ownership changes. Lexdesk flags it because it can put a valuable contract at risk in a merger or sale.',
  },
  {
    id: 'ip-ownership',
    title: 'Intellectual property ownership',
    terms: [
      'intellectual property',
      'ip ownership',
      'ip assignment',
      'ownership of work product',
      'work product',
      'joint ip ownership',
    ],
    text: 'An intellectual property clause says who owns what is created under the contract, such as software, designs or reports: it may assign it to the client, leave it with the creator under a licence, or make it jointly owned. Lexdesk flags a contract that assigns no intellectual property when the client pays for the work.',
  },
  {
    id: 'license',
    title: 'Licence grant',
    terms: [
      'license',
      'licence',
      'license grant',
      'licence grant',
      'perpetual license',
      'irrevocable license',
      'non-transferable license',
      'sublicense',
    ],
    text: 'A licence is a permission to use something a party owns, such as software or a trademark, without owning it. The grant says what may be used, by whom, where, for how long and whether it can be passed on (transferred or sublicensed); a perpetual or irrevocable licence cannot simply be withdrawn.',
  },
  {
    id: 'non-compete',
    title: 'Non-compete',
    terms: [
      'non-compete',
      'noncompete',
      'non compete',
      'covenant not to compete',
      'restrictive covenant',
      'competitive restriction',
    ],
    text: 'A non-compete clause forbids a party from competing with the other, in a given field, area and period. Courts enforce it only when it is reasonable in scope and protects a legitimate interest; Lexdesk flags it among the restrictions.',
  },
  {
    id: 'non-solicitation',
    title: 'Non-solicitation',
    terms: ['non-solicitation', 'non-solicit', 'no-solicit', 'nonsolicitation', 'poach'],
    text: 'A non-solicitation clause forbids a party from approaching the other’s customers or employees to take them away, for a period during and after the contract.',
  },
  {
    id: 'exclusivity',
    title: 'Exclusivity',
    terms: ['exclusivity', 'exclusive', 'exclusive dealing', 'sole supplier'],
    text: 'An exclusivity clause requires a party to deal only with the other for certain goods, services or territory, for example to buy all its requirements from one supplier. Lexdesk flags it because it shuts out alternatives for its duration.',
  },
  {
    id: 'most-favoured-nation',
    title: 'Most-favoured-nation clause',
    terms: [
      'most favored nation',
      'most favoured nation',
      'most-favored-nation',
      'most-favoured-nation',
      'mfn',
    ],
    text: 'A most-favoured-nation clause promises a party terms at least as good as those given to any other customer, and often a price cut if better terms are offered elsewhere. It limits how freely the promising party can price.',
  },
  {
    id: 'minimum-commitment',
    title: 'Minimum commitment',
    terms: [
      'minimum commitment',
      'minimum purchase',
      'minimum volume',
      'take or pay',
      'take-or-pay',
    ],
    text: 'A minimum commitment obliges a party to buy or pay for at least a stated amount over a period, whether or not it needs it. Lexdesk flags it as a commercial risk.',
  },
  {
    id: 'payment',
    title: 'Payment terms',
    terms: [
      'payment terms',
      'fees',
      'price',
      'invoice',
      'late payment',
      'interest on late payment',
    ],
    text: 'Payment terms say what is paid, when and how: the fees or price, invoicing, the days allowed to pay, interest on late payment and who bears taxes. Lexdesk’s deal sheet gathers the contract’s amounts under Money.',
  },
  {
    id: 'warranty',
    title: 'Warranty',
    terms: [
      'warranty',
      'warranties',
      'representations and warranties',
      'warranty period',
      'warranty duration',
    ],
    text: 'A warranty is a promise that a fact is true or that goods or services will meet a standard, for example that software will perform as documented for ninety days. If it proves false, the other party can claim its loss, usually within the limits of the liability clause.',
  },
  {
    id: 'audit-rights',
    title: 'Audit rights',
    terms: [
      'audit rights',
      'audit right',
      'right to audit',
      'inspect the records',
      'inspection rights',
    ],
    text: 'Audit rights let a party inspect the other’s books, records or premises to check compliance, for example that licence fees or royalties were correctly reported, usually on notice and a limited number of times a year.',
  },
  {
    id: 'insurance',
    title: 'Insurance',
    terms: ['insurance', 'insurance requirements', 'insured'],
    text: 'An insurance clause requires a party to hold stated insurance, such as professional indemnity or public liability cover for a minimum amount, and often to show proof of it, so that claims under the contract can actually be paid.',
  },
  {
    id: 'third-party-beneficiary',
    title: 'Third-party beneficiary',
    terms: [
      'third party beneficiary',
      'third-party beneficiary',
      'third party rights',
      'third-party rights',
    ],
    text: 'A third-party beneficiary is someone who is not a party but may enforce a term made for their benefit, such as an affiliate. Many contracts exclude such rights expressly so that only the parties can enforce them.',
  },
  {
    id: 'source-code-escrow',
    title: 'Source code escrow',
    terms: ['source code escrow', 'escrow'],
    text: 'Under a source code escrow, a software supplier deposits its source code with an independent agent, who releases it to the customer if the supplier goes out of business or stops supporting the software.',
  },
  {
    id: 'covenant-not-to-sue',
    title: 'Covenant not to sue',
    terms: ['covenant not to sue', 'promise not to sue', 'waiver of claims', 'release of claims'],
    text: 'A covenant not to sue is a promise not to bring a claim, often over intellectual property or a settled dispute, without giving up the underlying right itself.',
  },
  {
    id: 'non-disparagement',
    title: 'Non-disparagement',
    terms: ['non-disparagement', 'nondisparagement', 'disparage', 'disparaging'],
    text: 'A non-disparagement clause forbids a party from making negative public statements about the other, common in settlements and employment separations.',
  },
  {
    id: 'right-of-first-refusal',
    title: 'Right of first refusal',
    terms: [
      'right of first refusal',
      'right of first offer',
      'right of first negotiation',
      'rofr',
      'rofo',
      'rofn',
    ],
    text: 'A right of first refusal lets a party match any offer a third party makes before the other may accept it; a right of first offer or negotiation requires the other to offer or negotiate with it first.',
  },
  {
    id: 'force-majeure',
    title: 'Force majeure',
    terms: ['force majeure', 'act of god', 'acts of god'],
    text: 'A force majeure clause excuses a party from performing while events beyond its control, such as natural disasters, war or epidemics, prevent it, usually on notice and often with a right to end the contract if the event lasts long.',
  },
]
