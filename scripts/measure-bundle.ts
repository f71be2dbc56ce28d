/**
 * The JavaScript each page of the built SPA loads, from Vite's build manifest
 * (`<dist>/.vite/manifest.json`, written with `build.manifest: true`), in KiB of gzip (zlib's
 * default level 6, as served compressed; 1 KiB = 1,024 bytes).
 * - landing: the entry chunk (index.html) and its static imports, which is all the landing page
 *   runs (every other screen is a lazy route).
 * - routes: per lazy route chunk, the entry's closure plus `layouts` (the lazy layouts a dashboard
 *   screen sits under) plus the chunk's own static imports. Layouts are counted for every route,
 *   public ones too, so the figure errs on the heavy side.
 * Throws when the manifest is missing, has no entry, or lacks a named layout.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

interface ManifestChunk {
  file: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
}

/** What `measureBundle` returns: sizes in KiB of gzip, routes heaviest first. */
export interface BundleMeasure {
  landingKiB: number
  routes: { chunk: string; kiB: number }[]
}

/** Measures the build in `distDir` (e.g. 'dist/web'); `layouts` are manifest keys of lazy layouts. */
export function measureBundle(distDir: string, layouts: readonly string[]): BundleMeasure {
  const manifestPath = path.join(distDir, '.vite', 'manifest.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry)
  if (!entry) throw new Error(`${manifestPath} has no entry chunk`)
  for (const layout of layouts) {
    if (!manifest[layout]) throw new Error(`${manifestPath} has no chunk ${layout}`)
  }

  const chunk = (key: string): ManifestChunk => {
    const found = manifest[key]
    if (!found) throw new Error(`${manifestPath} names a chunk it does not list: ${key}`)
    return found
  }
  const closure = (keys: readonly string[]): Set<string> => {
    const seen = new Set<string>()
    const visit = (key: string) => {
      if (seen.has(key)) return
      seen.add(key)
      for (const imported of chunk(key).imports ?? []) visit(imported)
    }
    keys.forEach(visit)
    return seen
  }
  const gzipBytes = new Map<string, number>()
  const bytesOf = (key: string): number => {
    const file = chunk(key).file
    if (!file.endsWith('.js')) return 0
    let size = gzipBytes.get(file)
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(distDir, file))).length
      gzipBytes.set(file, size)
    }
    return size
  }
  const kiB = (keys: Set<string>) =>
    Math.round(([...keys].reduce((sum, key) => sum + bytesOf(key), 0) / 1024) * 10) / 10

  const routes = Object.keys(manifest)
    .filter((key) => manifest[key]?.isDynamicEntry && !layouts.includes(key))
    .map((key) => ({ chunk: key, kiB: kiB(closure([entry, ...layouts, key])) }))
    .sort((a, b) => b.kiB - a.kiB)
  return { landingKiB: kiB(closure([entry])), routes }
}
