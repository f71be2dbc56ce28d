/**
 * Builds the app on an in-memory database and returns its OpenAPI 3.1 document, without
 * listening. Used by the API type generator and the OpenAPI validity test.
 */
import { openPglite } from '../server/db/client'
import { createConsoleMailer } from '../server/mail/mailer'
import { createFsBlobStore } from '../server/blob/fs-blob-store'
import { buildApp } from '../server/app'
import { loadConfig } from '../server/config'
import { WorkerPool } from '../server/workers/worker-pool'
import type { Analyzer } from '../server/ai/analyzer/types'
import { LocalEmbedder } from '../server/ai/embedder/local-embedder'
import { LocalChat } from '../server/ai/chat/local-chat'

/** An analyzer for building the route table only; generating the document never analyses. */
const routeTableOnly: Analyzer = {
  engine: 'none',
  analyze: () => Promise.reject(new Error('No analysis while generating the OpenAPI document')),
}

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const database = await openPglite({})
  // Threads start on first use only, so this pool never starts one.
  const pool = new WorkerPool({ threads: 1 })
  const app = await buildApp({
    resources: {
      database,
      mailer: createConsoleMailer(() => {}),
      blobs: createFsBlobStore('/nonexistent'),
      pool,
      engines: {
        analyzer: routeTableOnly,
        columnReader: null,
        transcriber: { transcribe: () => Promise.reject(new Error('No transcription here')) },
        speaker: { speak: () => Promise.reject(new Error('No speech here')) },
        embedder: new LocalEmbedder(pool),
        chat: new LocalChat(),
      },
    },
    // The schema's defaults, whatever this process's environment says: the document is the same
    // for everyone (PUBLIC_URL's default is http://localhost:3000).
    config: loadConfig({}),
    secret: 'openapi-generation-secret-0123456789abcdef',
  })
  await app.ready()
  const document = app.swagger() as unknown as Record<string, unknown>
  await app.close()
  await pool.close()
  await database.close()
  return document
}
