/**
 * Ten questions asked in plain words about a short mutual NDA, each sharing no content word
 * (PostgreSQL's English stop list and Porter2 stems, paraphrase/content-words.ts) with the clause
 * that answers it: issue 48's "ten reworded questions" check of search by meaning, run by
 * hybrid-search's tests and by `npm run eval:retrieval -- --reworded` (no fixtures needed). The
 * NDA was written for Lexdesk in the usual US drafting of a mutual NDA; its passages are what
 * chunk-text.ts would make of it (headings, preamble, recital, clauses, signature, page footer).
 * The questions were written as a client asks them, before the legal lexicon's groups were
 * checked against them (decision 0117).
 */

/** The NDA, one passage a string, in document order. */
export const REWORDED_NDA: readonly string[] = [
  'MUTUAL NON-DISCLOSURE AGREEMENT',
  'This Mutual Non-Disclosure Agreement is entered into as of March 1, 2026 by and between Acme Corp., a Delaware corporation, and Birch Ltd., a company registered in England.',
  'WHEREAS, the parties wish to evaluate a possible business relationship (the "Purpose").',
  '1. Definitions',
  '"Confidential Information" means all non-public business, technical and financial information disclosed by one party to the other, whether orally, visually or in writing.',
  '2. Obligations',
  'The Receiving Party shall hold the Confidential Information in strict confidence and shall not disclose it to any third party without the prior written consent of the Disclosing Party.',
  'The Receiving Party shall use the Confidential Information solely for the Purpose.',
  'The Receiving Party may disclose Confidential Information to its employees, officers and professional advisers who need to know it for the Purpose and are bound by obligations of confidentiality.',
  'The Receiving Party shall not reverse engineer, decompile or disassemble any prototypes, software or other tangible objects embodying Confidential Information.',
  '3. Exclusions',
  'The obligations of this Agreement shall not apply to information that is or becomes publicly available through no fault of the Receiving Party.',
  'Nor shall they apply to information already known to the Receiving Party before its disclosure, or independently developed without use of the Confidential Information.',
  'Nor shall they apply to information rightfully obtained from a third party without a duty of confidentiality.',
  'If the Receiving Party is required by law, regulation or court order to disclose Confidential Information, it shall give the Disclosing Party prompt notice so that it may seek a protective order.',
  '4. Return of Materials',
  'Upon termination of this Agreement or upon request, the Receiving Party shall promptly return or destroy all documents and copies containing Confidential Information and certify the destruction in writing.',
  '5. Term',
  'This Agreement shall remain in effect for two (2) years from the Effective Date. The obligations of confidentiality shall survive its expiration for five (5) years.',
  'Either party may terminate this Agreement upon thirty (30) days written notice to the other.',
  '6. Non-Solicitation',
  'During the term and for twelve months thereafter, neither party shall solicit for employment any employee of the other party with whom it had contact in connection with the Purpose.',
  '7. No License',
  'Nothing in this Agreement grants the Receiving Party any license or other right under any patent, copyright or trade secret of the Disclosing Party.',
  'All Confidential Information is provided "AS IS", without warranty of any kind.',
  '8. Remedies',
  'The Disclosing Party shall be entitled to seek injunctive relief in addition to any other remedy available at law or in equity.',
  '9. Governing Law',
  'This Agreement shall be governed by the laws of the State of New York, and the parties submit to the exclusive jurisdiction of the courts located in New York County.',
  'Neither party may assign this Agreement without the prior written consent of the other party, except to a successor in a merger or acquisition.',
  'This Agreement constitutes the entire agreement between the parties and supersedes all prior understandings.',
  'Any notice under this Agreement shall be delivered by hand, courier or email to the addresses set out above.',
  'IN WITNESS WHEREOF, the parties have executed this Agreement as of the date first written above.',
  'Page 1 of 2',
]

/** The ten questions and the ordinal of the passage that answers each. */
export const REWORDED_QUESTIONS: ReadonlyArray<{ question: string; answer: number }> = [
  { question: 'Do we have to hand back or shred the papers once the deal ends?', answer: 16 },
  { question: 'Can they poach our staff?', answer: 21 },
  {
    question: 'Are we allowed to take apart their gadgets to learn how they were built?',
    answer: 9,
  },
  { question: 'Where would a lawsuit be heard, and whose rules apply?', answer: 28 },
  { question: 'What if a subpoena compels us to reveal their secrets?', answer: 14 },
  { question: 'Could the contract be transferred to a buyer of the company?', answer: 29 },
  { question: 'How long must secrecy be kept once the arrangement is over?', answer: 18 },
  { question: 'Does the secrecy duty cover facts everyone can already find?', answer: 11 },
  { question: 'Can they go to a judge to stop a leak quickly?', answer: 26 },
  { question: 'How can one side walk away from the deal early?', answer: 19 },
]
