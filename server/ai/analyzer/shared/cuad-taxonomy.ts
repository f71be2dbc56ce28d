/**
 * The CUAD v1 categories the local clause detector looks for (The Atticus Project, Hendrycks et
 * al. 2021, CC BY 4.0). Names are spelled exactly as in CUAD's master_clauses.csv headers.
 */

/** The 35 clause categories: CUAD's 41 minus the key-term ones (name, parties, dates, law). */
export const CLAUSE_CATEGORIES = [
  'Most Favored Nation',
  'Competitive Restriction Exception',
  'Non-Compete',
  'Exclusivity',
  'No-Solicit Of Customers',
  'No-Solicit Of Employees',
  'Non-Disparagement',
  'Termination For Convenience',
  'Rofr/Rofo/Rofn',
  'Change Of Control',
  'Anti-Assignment',
  'Revenue/Profit Sharing',
  'Price Restrictions',
  'Minimum Commitment',
  'Volume Restriction',
  'Ip Ownership Assignment',
  'Joint Ip Ownership',
  'License Grant',
  'Non-Transferable License',
  'Affiliate License-Licensor',
  'Affiliate License-Licensee',
  'Unlimited/All-You-Can-Eat-License',
  'Irrevocable Or Perpetual License',
  'Source Code Escrow',
  'Post-Termination Services',
  'Audit Rights',
  'Uncapped Liability',
  'Cap On Liability',
  'Liquidated Damages',
  'Warranty Duration',
  'Insurance',
  'Covenant Not To Sue',
  'Third Party Beneficiary',
  'Renewal Term',
  'Notice Period To Terminate Renewal',
] as const

/** Governing Law is a key term, but its clause is easy to find and worth quoting too. */
export const GOVERNING_LAW = 'Governing Law'

/** Every category the detector scores: the 35 clause categories plus Governing Law. */
export const DETECTED_CATEGORIES: readonly string[] = [...CLAUSE_CATEGORIES, GOVERNING_LAW]
