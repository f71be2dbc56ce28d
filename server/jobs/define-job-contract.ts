/**
 * The contract of a job kind (decisions 0039, 0119): its `kind`, the zod schemas of its `input`
 * (checked when it is queued and again when it runs) and of its `result` (checked before it is
 * stored, and published in OpenAPI as the kind's branch of the Job union), how many attempts it
 * gets and whether it is background work. Nothing else: a contract imports no handler and no
 * service, so anyone may import it (the runner, the routes that queue it, another job's handler,
 * the OpenAPI schema). The work is a `JobHandler`, bound to the contract's kind once, at
 * composition (server/job-handlers.ts), by `JobRunner.bind`.
 */
import type { z } from 'zod'
import type { ClaimedJob } from './job-store'

/** What a handler gets besides the job: its cancel signal and a progress reporter. */
export interface JobContext {
  signal: AbortSignal
  /** `fraction` in 0..1, `message` short and user-facing. */
  progress(fraction: number, message: string): void
}

/** A claimed job whose input has passed its kind's schema. */
export interface TypedJob<Input> extends ClaimedJob {
  input: Input
}

/** The work of one job kind over a checked input; the value `run` returns becomes the result. */
export interface JobHandler<Input, Result> {
  /** A method, so that handlers of narrower inputs fit a common type. */
  run(job: TypedJob<Input>, context: JobContext): Promise<Result>
}

/** One job kind: what it is called, takes and gives, never how it is done. */
export interface JobContract<
  Kind extends string = string,
  Input extends z.ZodType = z.ZodType,
  Result extends z.ZodType = z.ZodType,
> {
  readonly kind: Kind
  readonly input: Input
  readonly result: Result
  /** Runs of a job before an unexpected failure is final (default 3). */
  readonly maxAttempts?: number
  /** Work nobody waits on: it yields to foreground jobs (job-store.ts, decision 0028). */
  readonly background?: boolean
}

/** A list of job contracts: the kinds a JobRunner queues and runs. */
export type JobContracts = readonly JobContract[]

/** The kinds of a list of contracts, as a union of string literals. */
export type JobKind<C extends JobContracts> = C[number]['kind']

/** The contract of `kind` in list `C`. */
export type JobOf<C extends JobContracts, K extends JobKind<C>> = Extract<C[number], { kind: K }>

/** What `enqueue(kind, input)` accepts for `kind`: the input schema's input type. */
export type JobInput<C extends JobContracts, K extends JobKind<C>> = z.input<JobOf<C, K>['input']>

/** The handler of one contract: over its checked input, returning what its result schema takes. */
export type JobHandlerOf<T extends JobContract> = JobHandler<
  z.output<T['input']>,
  z.input<T['result']>
>

/** One handler per kind of `C`, by kind: what the composition binds (JobRunner.bind). */
export type JobHandlers<C extends JobContracts> = {
  readonly [K in JobKind<C>]: JobHandlerOf<JobOf<C, K>>
}

/** Declares a job kind's contract; the identity, there so that its kind stays a literal type. */
export function defineJobContract<
  Kind extends string,
  Input extends z.ZodType,
  Result extends z.ZodType,
>(contract: JobContract<Kind, Input, Result>): JobContract<Kind, Input, Result> {
  return contract
}
