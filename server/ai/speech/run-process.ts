/**
 * Runs an external program (ffmpeg, pocketsphinx_continuous, espeak-ng) with optional stdin bytes,
 * collecting stdout. Given the worker pool, the process runs on one of its slots
 * (WorkerPool.runOnSlot): it waits for a free thread, counts in the pool's counters and is killed
 * at the pool's task timeout (a 422 `audio_timeout` problem), so speech shares the cap of every
 * other CPU-heavy task. Aborting `signal` kills the process (SIGKILL). A program that is not
 * installed becomes a 503 `engine_unavailable` problem naming `install`, never a crash. The OCR
 * programs (pdftoppm, tesseract; decision 0053) also set their own time limit and failure map, a
 * working folder, a bare environment and an address-space cap (util-linux `prlimit --as`, so a
 * hostile PDF that makes the renderer grow is killed by the kernel, not the server). Background
 * work on a slot (`background: true`: a scan's OCR) runs at PROGRAM_NICENESS, so on a busy CPU the
 * server's own threads (requests, the database) come before it (decision 0107); a program a
 * request waits for (reading aloud, a recording's conversion) keeps the server's priority.
 */
import { spawn } from 'node:child_process'
import os from 'node:os'
import { AppError } from '../../errors/app-error'
import type { TaskFailures, WorkerPool } from '../../workers/worker-pool'

/** The failure map of a speech program's slot: past the pool's task timeout, a 422. */
const SPEECH_FAILURES: TaskFailures = {
  timeout: {
    code: 'audio_timeout',
    detail:
      'Working on this audio took longer than the server allows (WORKER_TASK_TIMEOUT_S), so it was stopped.',
  },
}

/** A program exited with a non-zero status; `stderr` holds its last 2,000 characters. */
export class ProcessFailure extends Error {
  constructor(
    readonly program: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`${program} exited with ${exitCode}: ${stderr.slice(-300)}`)
    this.name = 'ProcessFailure'
  }
}

export interface RunOptions {
  stdin?: Uint8Array
  signal?: AbortSignal
  /** What to tell the user to install or configure when the program is missing. */
  install: string
  /**
   * The shared worker pool, whose slot the process holds while it runs. Engines always pass it;
   * only test and benchmark helpers that make audio fixtures pass null.
   */
  pool: WorkerPool | null
  /** Wall-clock limit of the run in ms (default: the pool's task timeout). */
  timeoutMs?: number
  /** What the slot's failures become (default: the speech programs', 422 `audio_timeout`). */
  failures?: TaskFailures
  /** Working folder of the process (default: the server's). */
  cwd?: string
  /** The whole environment of the process, when given (default: the server's). */
  env?: NodeJS.ProcessEnv
  /** Address-space cap of the process in MiB, through `prlimit --as` (default: none). */
  memoryMb?: number
  /**
   * The organisation whose share of the pool the slot takes (WorkerPool's `orgId`); default: the
   * work in progress's (a job's organisation).
   */
  orgId?: string
  /**
   * Whether nobody waits for it in a request (a scan's OCR pages): it then runs at
   * PROGRAM_NICENESS. Default false: a program a request waits on is not slowed behind others.
   */
  background?: boolean
}

/**
 * How much nicer than the server a program run on a pool slot is: 10, `nice`'s default (the
 * result capped at 19, the kernel's last). The slot already caps how many programs run; the
 * niceness decides who waits when they and the server want the same core: a page of OCR (seconds
 * of CPU) yields to a request or a probe (milliseconds), and still has the core whenever the
 * server is idle (issue 41: another firm's lists and /readyz during a scan).
 */
export const PROGRAM_NICENESS = 10

/** Exit status of `prlimit` when the program it was to run does not exist (util-linux). */
const PRLIMIT_NOT_FOUND = 127

/**
 * Runs `program args`; resolves with its stdout, rejects with ProcessFailure, AppError (503
 * `engine_unavailable`, 422 `audio_timeout`) or the abort reason.
 */
export async function runProcess(
  program: string,
  args: string[],
  options: RunOptions,
): Promise<Buffer> {
  const { pool, timeoutMs, failures, orgId, background, ...rest } = options
  if (!pool) return spawnAndCollect(program, args, rest)
  const niceness = background ? Math.min(19, os.getPriority() + PROGRAM_NICENESS) : undefined
  return pool.runOnSlot((signal) => spawnAndCollect(program, args, { ...rest, signal, niceness }), {
    signal: options.signal,
    timeoutMs,
    failures: failures ?? SPEECH_FAILURES,
    orgId,
  })
}

function spawnAndCollect(
  program: string,
  args: string[],
  options: Omit<RunOptions, 'pool' | 'timeoutMs' | 'failures' | 'orgId' | 'background'> & {
    niceness?: number
  },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(options.signal.reason)
    const capped = options.memoryMb !== undefined
    const command = capped ? 'prlimit' : program
    const argv = capped ? [`--as=${options.memoryMb! * 1024 * 1024}`, '--', program, ...args] : args
    const child = spawn(command, argv, {
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: options.cwd,
      env: options.env,
    })
    // Set on the process just started, before it has used any CPU worth counting (prlimit keeps
    // its pid when it runs the program).
    if (options.niceness !== undefined && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, options.niceness)
      } catch {
        // The process is gone already: its exit is reported below.
      }
    }
    const out: Buffer[] = []
    let stderr = ''
    const onAbort = () => child.kill('SIGKILL')
    options.signal?.addEventListener('abort', onAbort, { once: true })
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000)
    })
    child.stdin.on('error', () => {}) // the program may exit before reading all of its input
    child.on('error', (error: NodeJS.ErrnoException) => {
      options.signal?.removeEventListener('abort', onAbort)
      if (error.code === 'ENOENT') reject(engineUnavailable(options.install, error))
      else reject(error)
    })
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort)
      if (options.signal?.aborted) reject(options.signal.reason)
      else if (code === 0) resolve(Buffer.concat(out))
      else if (capped && code === PRLIMIT_NOT_FOUND) reject(engineUnavailable(options.install))
      else reject(new ProcessFailure(program, code, stderr))
    })
    child.stdin.end(options.stdin ?? undefined)
  })
}

/** The 503 problem of a speech engine that is not installed or configured. */
export function engineUnavailable(install: string, cause?: unknown): AppError {
  return new AppError('engine_unavailable', install, {}, cause)
}
