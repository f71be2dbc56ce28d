/**
 * The typed declaration of a job kind (decision 0039): its `kind`, the zod schemas of its `input`
 * (checked when it is queued and again when it runs) and of its `result` (checked before it is
 * stored, and published in OpenAPI as one branch of the Job union), how many attempts it gets,
 * whether it is background work, and `handler(services)`, which binds its work to the app's
 * services once, at composition (server/job-catalogue.ts), never inside a route plugin.
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
  /** A method, so that handlers of narrower inputs fit a catalogue's common type. */
  run(job: TypedJob<Input>, context: JobContext): Promise<Result>
}

/** One job kind. `Services` is what `handler` is bound to (the app's services in the app). */
export interface JobDefinition<
  Kind extends string = string,
  Input extends z.ZodType = z.ZodType,
  Result extends z.ZodType = z.ZodType,
  Services = never,
> {
  readonly kind: Kind
  readonly input: Input
  readonly result: Result
  /** Runs of a job before an unexpected failure is final (default 3). */
  readonly maxAttempts?: number
  /** Work nobody waits on: it yields to foreground jobs (job-store.ts, decision 0028). */
  readonly background?: boolean
  /** Binds the work to the services; a method, so a catalogue may hold jobs of narrower needs. */
  handler(services: Services): JobHandler<z.output<Input>, z.input<Result>>
}

/** A list of job definitions bound to the same services: what a JobRunner runs. */
export type JobCatalogue<Services = never> = readonly JobDefinition<
  string,
  z.ZodType,
  z.ZodType,
  Services
>[]

/** The kinds of a catalogue, as a union of string literals. */
export type JobKind<C extends JobCatalogue<never>> = C[number]['kind']

/** The definition of `kind` in catalogue `C`. */
export type JobOf<C extends JobCatalogue<never>, K extends JobKind<C>> = Extract<
  C[number],
  { kind: K }
>

/** What `enqueue(kind, input)` accepts for `kind`: the input schema's input type. */
export type JobInput<C extends JobCatalogue<never>, K extends JobKind<C>> = z.input<
  JobOf<C, K>['input']
>

/** Declares a job kind; the identity, there so that its kind stays a literal type. */
export function defineJob<
  Kind extends string,
  Input extends z.ZodType,
  Result extends z.ZodType,
  Services,
>(
  definition: JobDefinition<Kind, Input, Result, Services>,
): JobDefinition<Kind, Input, Result, Services> {
  return definition
}
