/**
 * Vite build of the React SPA (web/) into dist/web, served by the Fastify server in production.
 * The manifest (dist/web/.vite/manifest.json) lets scripts/check-bundle-budgets.ts measure the
 * JavaScript each route loads (decision 0042); every text file gets a .br and a .gz copy beside it
 * (scripts/precompress-assets.ts, decision 0069).
 */
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { precompressAssets } from './scripts/precompress-assets'

export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss(), precompressAssets()],
  build: { outDir: '../dist/web', emptyOutDir: true, manifest: true },
  server: { proxy: { '/api': 'http://localhost:3000' } },
})
