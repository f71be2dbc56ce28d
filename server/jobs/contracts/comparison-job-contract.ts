/**
 * The 'comparison' job's contract (issue 46, decision 0149): compares the base and revised
 * documents of one stored comparison (server/compare/ compareTexts, on the worker pool) and
 * writes the result into its row. Queued by the comparisons feature (POST …/comparisons, the MCP
 * tool compare_documents); run by features/comparisons/comparison-job.ts. Its result repeats the
 * comparison's counts.
 */
import { z } from 'zod'
import { defineJobContract } from '../define-job-contract'

export const comparisonJobContract = defineJobContract({
  kind: 'comparison',
  input: z.object({ comparisonId: z.string().uuid() }),
  result: z
    .object({
      comparisonId: z.string().uuid(),
      substantiveChanges: z.number().int().min(0).describe('Substantive changes, moves apart'),
      formatChanges: z.number().int().min(0).describe('Changes of form only'),
      moves: z.number().int().min(0).describe('Clauses moved'),
    })
    .meta({ id: 'ComparisonJobResult' }),
  maxAttempts: 2,
})
