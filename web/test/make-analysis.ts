/** Test factory: an analysis of a sample NDA whose spans really index into the sample text. */
import type { Analysis, AnalysisKind, KeyTerm, Risk } from '../features/analysis/api/types'

/** A short mutual NDA used as document content in tests. */
export const SAMPLE_CONTRACT = `MUTUAL NON-DISCLOSURE AGREEMENT

This Agreement is made on 1 March 2026 between Acme Corp ("Acme") and Beta LLC ("Beta").

1. Confidentiality. Each party shall keep the other party's Confidential Information secret.

2. Term. This Agreement renews automatically for successive one-year terms unless either party gives 30 days' notice.

3. Liability. Beta's liability under this Agreement is unlimited.

4. Governing Law. This Agreement is governed by the laws of the State of New York.`

/** Span of the first occurrence of `text` in `content`; throws if absent so fixtures stay honest. */
function spanOf(content: string, text: string): { start: number; end: number; text: string } {
  const start = content.indexOf(text)
  if (start < 0) throw new Error(`Fixture text not found: ${text}`)
  return { start, end: start + text.length, text }
}

function term(content: string, text: string, value: string): KeyTerm {
  const { start, end } = spanOf(content, text)
  return { start, end, value }
}

function party(
  content: string,
  name: string,
  role: string,
): { start: number; end: number; name: string; role: string } {
  const { start, end } = spanOf(content, name)
  return { start, end, name, role }
}

function risk(content: string, text: string, fields: Omit<Risk, 'start' | 'end'>): Risk {
  const { start, end } = spanOf(content, text)
  return { start, end, ...fields }
}

/**
 * A full analysis of `SAMPLE_CONTRACT` as the server returns it while the document has no
 * "we act for" choice; override `id`, `kind` or `createdAt` per test.
 */
export function makeAnalysis(
  overrides: { id?: string; kind?: AnalysisKind; createdAt?: string; documentId?: string } = {},
): Analysis {
  const c = SAMPLE_CONTRACT
  return {
    id: overrides.id ?? 'analysis-1',
    documentId: overrides.documentId ?? 'doc-1',
    kind: overrides.kind ?? 'full',
    engine: 'local',
    model: 'textrank-v1',
    createdAt: overrides.createdAt ?? '2026-03-12T14:03:00.000Z',
    weActFor: null,
    ourParty: null,
    result: {
      summary: {
        text: 'This Agreement is made on 1 March 2026 between Acme Corp ("Acme") and Beta LLC ("Beta"). Beta\'s liability under this Agreement is unlimited.',
        sentences: [
          spanOf(
            c,
            'This Agreement is made on 1 March 2026 between Acme Corp ("Acme") and Beta LLC ("Beta").',
          ),
          spanOf(c, "Beta's liability under this Agreement is unlimited."),
        ],
        header: [
          {
            label: 'Type',
            value: 'Mutual Non-Disclosure Agreement',
            ...spanOf(c, 'MUTUAL NON-DISCLOSURE AGREEMENT'),
          },
          { label: 'Governing law', value: 'New York', ...spanOf(c, 'the State of New York') },
        ].map(({ label, value, start, end }) => ({ label, value, start, end })),
      },
      clauses: [
        {
          ...spanOf(c, 'This Agreement is governed by the laws of the State of New York.'),
          category: 'Governing Law',
          confidence: 0.97,
        },
        {
          ...spanOf(c, 'This Agreement renews automatically for successive one-year terms'),
          category: 'Renewal Term',
          confidence: 0.81,
        },
        {
          ...spanOf(c, "unless either party gives 30 days' notice"),
          category: 'Renewal Term',
          confidence: 0.64,
        },
      ],
      risks: [
        risk(c, "gives 30 days' notice", {
          code: 'short-notice',
          severity: 'low',
          title: 'Short notice period',
          explanation: 'Thirty days may be too short to find a replacement supplier.',
        }),
        risk(c, "Beta's liability under this Agreement is unlimited.", {
          code: 'uncapped-liability',
          severity: 'high',
          title: 'Uncapped liability',
          explanation: 'No cap on damages exposes Beta to unlimited losses.',
          binds: ['Beta LLC'],
          severityIfBindsUs: 'high',
          severityIfBindsThem: 'low',
          // As the server says it while the document has no "we act for" choice.
          whose: { label: 'Risk for Beta LLC', reason: 'The cited clause binds Beta LLC.' },
        }),
        risk(c, 'renews automatically', {
          code: 'auto-renewal',
          severity: 'medium',
          title: 'Automatic renewal',
          explanation: 'The agreement renews unless notice is given in time.',
        }),
      ],
      keyTerms: {
        parties: [party(c, 'Acme Corp', 'Discloser'), party(c, 'Beta LLC', 'Recipient')],
        agreementDate: term(c, '1 March 2026', '2026-03-01'),
        effectiveDate: null,
        expirationDate: null,
        governingLaw: term(c, 'the State of New York', 'New York'),
        renewalTerm: term(c, 'successive one-year terms', '1 year'),
        noticePeriod: term(c, "30 days' notice", '30 days'),
      },
      engine: 'local',
      model: 'textrank-v1',
      durationMs: 42,
    },
  }
}
