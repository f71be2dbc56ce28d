/**
 * Vite plugin writing a Brotli (`.br`) and a gzip (`.gz`) copy beside each text file of the build
 * (JavaScript, CSS, HTML, SVG, JSON), so the server sends them compressed without spending CPU per
 * request (@fastify/static's `preCompressed`, server/app.ts). Lighthouse's "Enable text
 * compression" audit flagged the uncompressed bundle (issue 30). Files under 1 KiB are left
 * alone: compression saves less than the headers cost. Both at their highest level: built once.
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json)$/
const MIN_BYTES = 1024
const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Writes `<file>.br` and `<file>.gz` for every compressible file of at least 1 KiB in `dir`. */
export async function precompressFiles(dir: string, files: readonly string[]): Promise<void> {
  await Promise.all(
    files
      .filter((file) => COMPRESSIBLE.test(file))
      .map(async (file) => {
        const full = path.join(dir, file)
        const body = await readFile(full)
        if (body.length < MIN_BYTES) return
        await writeFile(
          `${full}.br`,
          await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        )
        await writeFile(`${full}.gz`, await gzipAsync(body, { level: 9 }))
      }),
  )
}

/** The plugin: runs precompressFiles over the bundle once Vite has written it. */
export function precompressAssets(): Plugin {
  return {
    name: 'lexdesk-precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      await precompressFiles(options.dir ?? 'dist', Object.keys(bundle))
    },
  }
}
