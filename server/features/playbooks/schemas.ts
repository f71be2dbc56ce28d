/** API schemas of playbooks (issue 46, decision 0153); the positions' own: server/playbooks/positions.ts. */
import { z } from 'zod'
import { OrgParams } from '../../http/params'
import { PageQuery } from '../../lists/list-kit'
import { PlaybookDocument, Positions, PositionSeverity } from '../../playbooks/positions'
import { STARTER_IDS } from './starters'

export const PlaybookParams = OrgParams.extend({
  playbookId: z.string().uuid({ message: 'Playbook id must be a UUID' }),
})

export const VersionParams = PlaybookParams.extend({
  version: z.coerce.number().int().min(1).max(1_000_000).describe('The version number'),
})

export const CheckParams = PlaybookParams.extend({
  checkId: z.string().uuid({ message: 'Check id must be a UUID' }),
})

export const StarterParams = OrgParams.extend({
  starter: z.enum(STARTER_IDS).describe('A shipped starter playbook (listPlaybookStarters)'),
})

export const CreatePlaybookBody = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000).optional(),
})

export const UpdatePlaybookBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().max(2000).optional(),
  })
  .refine(
    (b) => b.name !== undefined || b.description !== undefined,
    'Give a name or a description',
  )

export const PositionsBody = z.object({ positions: Positions })

export const ExportQuery = z.object({
  version: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe('A version number; default the current approved version, else the latest draft'),
})

export const CreateCheckBody = z.object({
  documentId: z.string().uuid().describe('The document to check (analysed in full first)'),
  version: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('The version to check against; default the current approved version'),
})

export const CheckListQuery = PageQuery.extend({
  documentId: z.string().uuid().optional().describe('Only the checks of this document'),
})

const VersionSummary = z.object({
  number: z.number().int(),
  status: z.enum(['draft', 'approved']),
  positionCount: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  approvedBy: z.string().nullable().describe('Who approved it; null for a draft'),
  approvedAt: z.string().nullable(),
})

export const PlaybookVersion = VersionSummary.extend({ positions: Positions }).meta({
  id: 'PlaybookVersion',
})

export const PlaybookSummary = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    description: z.string(),
    currentVersion: z
      .number()
      .int()
      .nullable()
      .describe('The approved version checks use by default; null until one is approved'),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'PlaybookSummary' })

export const PlaybookDetail = PlaybookSummary.extend({
  versions: z.array(VersionSummary).describe('Newest first, without their positions'),
}).meta({ id: 'Playbook' })

export const PlaybookExport = PlaybookDocument.extend({
  version: z.number().int(),
  status: z.enum(['draft', 'approved']),
}).meta({ id: 'PlaybookExport' })

export const StarterSummary = z.object({
  id: z.enum(STARTER_IDS),
  name: z.string(),
  description: z.string(),
  positionCount: z.number().int(),
})

const QuotedSpan = z.object({ start: z.number().int(), end: z.number().int(), text: z.string() })
const Stance = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('preferred') }),
  z.object({ kind: z.literal('fallback'), rank: z.number().int() }),
  z.object({ kind: z.literal('unacceptable'), rank: z.number().int() }),
])

export const PositionResult = z
  .object({
    positionId: z.string(),
    clauseType: z.string(),
    title: z.string(),
    severity: PositionSeverity,
    verdict: z.enum(['compliant', 'fallback', 'deviation', 'missing']),
    fallbackRank: z.number().int().nullable().describe('For a fallback: 1 = the best one'),
    citation: QuotedSpan.nullable().describe(
      "The passage decided from (offsets into the document's `content`); null when missing",
    ),
    reading: z
      .object({
        who: z.array(z.string()),
        modality: z.string().nullable(),
        action: z.string().nullable(),
        object: z.string().nullable(),
        conditions: z.array(z.string()),
      })
      .nullable(),
    decision: z.discriminatedUnion('by', [
      z.object({
        by: z.literal('rules'),
        stance: Stance,
        rules: z.array(
          z.object({
            rule: z.record(z.string(), z.unknown()),
            says: z.string(),
            outcome: z.enum(['met', 'not_met', 'unknown']),
            found: z.string(),
            citation: QuotedSpan.nullable(),
          }),
        ),
      }),
      z.object({ by: z.literal('language'), stance: Stance.nullable(), similarity: z.number() }),
      z.object({ by: z.literal('absent') }),
    ]),
    explanation: z.string(),
    redline: z
      .object({
        language: z.string(),
        replaces: z.object({ start: z.number().int(), end: z.number().int() }).nullable(),
        fallbackLanguage: z.string().nullable(),
      })
      .nullable()
      .describe('The language to propose; null when compliant'),
    guidance: z.string(),
  })
  .meta({ id: 'PlaybookPositionResult' })

const Counts = z.object({
  compliant: z.number().int(),
  fallback: z.number().int(),
  deviation: z.number().int(),
  missing: z.number().int(),
})

export const CheckSummary = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid().nullable(),
    playbookId: z.string().uuid(),
    version: z.number().int(),
    documentId: z.string().uuid(),
    status: z.enum(['done', 'failed']),
    counts: Counts.nullable(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'PlaybookCheckSummary' })

export const CheckDetail = CheckSummary.extend({ results: z.array(PositionResult) }).meta({
  id: 'PlaybookCheck',
})
