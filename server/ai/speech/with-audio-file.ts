/**
 * Audio that arrived whole in memory (the public demo's base64 question, a test clip) written to
 * a private temporary file, for the engines, which take audio by file (types.ts AudioFile).
 */
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { withTempDir } from '../../temp-files/temp-root'
import type { AudioFile } from './types'

/**
 * Runs `use` on a private copy of `bytes` (mode 0600, in a folder of mode 0700 under the temporary
 * root); the folder is removed when `use` settles. Resolves to `use`'s result.
 */
export function withAudioFile<T>(
  bytes: Uint8Array,
  use: (audio: AudioFile) => Promise<T>,
): Promise<T> {
  return withTempDir(async (dir) => {
    const file = path.join(dir, 'audio')
    await writeFile(file, bytes, { mode: 0o600 })
    return use({ path: file })
  })
}
