/**
 * Object names of storage buckets (issue 24): a relative path such as `contracts/2026/lease.pdf`.
 * A name is normalised (Unicode NFC, backslashes as `/`, runs of `/` as one, `./` segments
 * dropped, a trailing `/` removed) and then checked like the blob keys: no absolute path, no `..`
 * segment, no control character, at most 1,024 UTF-8 bytes (S3's limit). The name is stored in
 * the object's row only; the bytes live under a key of their own (blob-keys.ts), so a name can
 * never reach another folder of the store.
 */
import { AppError } from '../../errors/app-error'

/** Longest object name, in UTF-8 bytes (S3's key limit, as the blob keys'). */
export const MAX_OBJECT_NAME_BYTES = 1024

/**
 * The normal form of `raw` (see the module comment). Throws the 400 AppError `bad_object_name`
 * naming what is wrong: empty, absolute, a `..` segment, a control character or too long.
 */
export function normaliseObjectName(raw: string): string {
  const bad = (why: string) =>
    new AppError('bad_object_name', `The object name ${JSON.stringify(raw)} ${why}.`)
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw bad('holds a control character')
  const slashed = raw.normalize('NFC').replace(/\\/g, '/')
  if (slashed.startsWith('/') || /^[A-Za-z]:\//.test(slashed)) throw bad('is an absolute path')
  const segments = slashed.split('/').filter((part) => part !== '' && part !== '.')
  if (segments.includes('..')) throw bad('holds a ".." segment')
  const name = segments.join('/')
  if (name === '') throw bad('is empty')
  if (Buffer.byteLength(name, 'utf8') > MAX_OBJECT_NAME_BYTES)
    throw bad(`is longer than ${MAX_OBJECT_NAME_BYTES} bytes`)
  return name
}

/**
 * A prefix as typed in the objects' filter: normalised like a name, keeping a trailing `/` (a
 * folder); '' for none. Throws `bad_object_name` as normaliseObjectName.
 */
export function normalisePrefix(raw: string): string {
  if (raw.trim() === '') return ''
  const name = normaliseObjectName(raw)
  return /[\\/]$/.test(raw) ? `${name}/` : name
}
