/**
 * Whether tesseract has a language pack for each language of OCR_LANGUAGES (decision 0053):
 * `tesseract --list-langs` names the installed ones. A missing pack is a 503 problem
 * `ocr_language_missing` naming the Debian package that brings it (`tesseract-ocr-<code>`, '_'
 * written '-'), a missing tesseract the 503 `engine_unavailable` of the OCR programs. A complete
 * answer is remembered for the process (packs are not removed from under a running server); a
 * missing one is asked again next time, so installing the pack needs no restart.
 */
import { AppError } from '../../errors/app-error'
import type { WorkerPool } from '../../workers/worker-pool'
import { runProcess } from '../speech/run-process'
import { OCR_INSTALL, OCR_PROGRAM_ENV } from './recognise-pdf'

const checked = new Set<string>()

/** The Debian package holding tesseract's language `code` (Debian's naming: chi_sim → chi-sim). */
export function tesseractPackage(code: string): string {
  return `tesseract-ocr-${code.replaceAll('_', '-')}`
}

/**
 * Resolves when every language of `languages` ('eng+deu') is installed; throws the 503 problems
 * above otherwise. `pool` gives the listing a slot of the worker pool.
 */
export async function checkOcrLanguages(languages: string, pool: WorkerPool): Promise<void> {
  if (checked.has(languages)) return
  const listing = await runProcess('tesseract', ['--list-langs'], {
    pool,
    install: OCR_INSTALL,
    env: OCR_PROGRAM_ENV,
  })
  // The first line is a header ('List of available languages in "…" (2):').
  const installed = new Set(
    listing
      .toString('utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.trim()),
  )
  const missing = languages.split('+').filter((code) => !installed.has(code))
  if (missing.length > 0) {
    const packages = missing.map(tesseractPackage)
    throw new AppError(
      'ocr_language_missing',
      `Reading scanned PDFs in ${missing.join(', ')} (OCR_LANGUAGES) needs the tesseract language pack${missing.length > 1 ? 's' : ''} ${packages.join(', ')}, not installed on the server: install the Debian package${missing.length > 1 ? 's' : ''} ${packages.join(' ')} (node scripts/ensure-system.mjs app).`,
    )
  }
  checked.add(languages)
}
