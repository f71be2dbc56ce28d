// Worker entry for LocalAnalyzer. Node 20 worker threads do not apply `--import` loaders before
// loading a TypeScript entry, so the worker registers tsx itself and then loads local-worker.ts.
import { register } from 'tsx/esm/api'

register()
await import('./local-worker.ts')
