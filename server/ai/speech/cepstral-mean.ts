/**
 * Cepstral mean normalisation for whole pieces of a recording. `pocketsphinx_continuous` is built
 * for live audio: it subtracts a running cepstral mean that starts from the acoustic model's
 * `-cmninit` (its `feat.params`, an average over the model's training data) and is only updated
 * at the end of each utterance, so the first utterance of every piece is normalised with a mean
 * that may be far from the recording's own (a different microphone, room or level). Since a
 * piece is a complete file, its own mean is known before decoding: `sphinx_fe` (Debian package
 * sphinxbase-utils) computes the same MFCC cepstra with the model's `feat.params` and the same
 * voice activity detection, their mean over the speech frames becomes `-cmninit`, and the
 * decoder reads it through `-featparams`. This is the batch CMN of CMU Sphinx
 * (`-cmn batch`: "subtract the mean of the whole utterance") applied to a continuous decoder.
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { WorkerPool } from '../../workers/worker-pool'
import { runProcess } from './run-process'

/** Cepstral coefficients per frame in the PocketSphinx US English model (c0–c12). */
const CEPSTRA = 13

/**
 * Writes a copy of the model's `feat.params` whose `-cmninit` is the mean cepstrum of
 * the speech frames of `wavFile` (16 kHz mono WAV), and returns its path (beside `wavFile`); undefined when the
 * piece has no speech frames (the model's default then stays). `install` names the package of
 * `sphinx_fe` for the 503 problem when it is missing. `sphinx_fe` runs on a slot of `pool`;
 * aborting `signal` kills it.
 */
export async function featParamsForPiece(
  modelDir: string,
  wavFile: string,
  options: { pool: WorkerPool; signal?: AbortSignal; install: string },
): Promise<string | undefined> {
  const paramsFile = path.join(modelDir, 'feat.params')
  const args = ['-argfile', paramsFile, '-samprate', '16000', '-mswav', 'yes', '-i', wavFile]
  const cepstra = `${wavFile}.mfc.txt`
  await runProcess('sphinx_fe', [...args, '-ofmt', 'text', '-o', cepstra], {
    signal: options.signal,
    install: options.install,
    pool: options.pool,
  })
  const mean = meanCepstrum(await readFile(cepstra, 'utf8'))
  if (!mean) return undefined
  const file = `${wavFile}.feat.params`
  await writeFile(file, withCmnInit(await readFile(paramsFile, 'utf8'), mean))
  return file
}

/** The mean of the frames of `sphinx_fe -ofmt text` output (one line of 13 numbers per frame). */
export function meanCepstrum(text: string): number[] | undefined {
  const sum = new Array<number>(CEPSTRA).fill(0)
  let frames = 0
  for (const line of text.split('\n')) {
    const values = line.trim().split(/\s+/).map(Number)
    if (values.length !== CEPSTRA || !values.every(Number.isFinite)) continue
    values.forEach((v, i) => (sum[i] = (sum[i] ?? 0) + v))
    frames++
  }
  return frames === 0 ? undefined : sum.map((s) => s / frames)
}

/** `params` (a feat.params file) with its `-cmninit` line replaced by (or added as) `mean`. */
export function withCmnInit(params: string, mean: number[]): string {
  const line = `-cmninit ${mean.map((v) => v.toFixed(2)).join(',')}`
  const kept = params.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('-cmninit'))
  return [...kept, line, ''].join('\n')
}
