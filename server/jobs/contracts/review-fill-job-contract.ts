/**
 * The 'review-fill' job's contract (issue 44, decision 0137): answers the pending cells of one
 * review, a document at a time, each document's cells written in a short transaction of their
 * own, so a restart resumes at the first document still pending and a cancel stops between two.
 * Queued by the reviews feature (creating a review, adding a column, retrying cells); run by
 * features/reviews/review-fill-job.ts. Its result counts the cells by the state it left them in,
 * and the engine's quotes that did not check (decision 0142).
 */
import { z } from 'zod'
import { defineJobContract } from '../define-job-contract'

export const reviewFillJobContract = defineJobContract({
  kind: 'review-fill',
  input: z.object({ reviewId: z.string().uuid() }),
  result: z
    .object({
      total: z.number().int().min(0).describe("The review's cells"),
      answered: z.number().int().min(0),
      notFound: z.number().int().min(0),
      failed: z.number().int().min(0),
      unverified: z.number().int().min(0),
      droppedQuotes: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe(
          'Quotes the OpenAI-compatible engine gave for custom columns that are not in their document (their cells are unverified), over this run; absent for runs before it was counted',
        ),
    })
    .meta({ id: 'ReviewFillJobResult' }),
})
