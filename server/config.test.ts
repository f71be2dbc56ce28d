import { describe, expect, it } from 'vitest'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from './config'
import { REPOSITORY_ROOT } from './repository-root'

describe('loadConfig', () => {
  it('applies the embedded defaults to an empty environment', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      databaseMigrationUrl: undefined,
      smtpUrl: undefined,
      ai: {
        analysis: { engine: 'local' },
        chat: { engine: 'local' },
        stt: { engine: 'local' },
        tts: { engine: 'local' },
        embed: { engine: 'local' },
      },
      workers: { threads: undefined, heapMb: 1024, taskTimeoutMs: 600_000 },
      jobs: { concurrency: os.availableParallelism(), perOrgCap: os.availableParallelism() },
      extraction: { maxPdfPages: 2000, timeoutSeconds: 60 },
      eventStreams: { perUser: 10, perOrg: 100 },
      apiRateLimits: { readsPerMinute: 600, writesPerMinute: 120 },
      maxRecordingMinutes: 180,
      ocrLanguages: 'eng',
    })
  })

  it('resolves every default itself, so the app and main.ts repeat none', () => {
    const config = loadConfig({})
    // The job runner's: one job per core, and an organisation may use them all.
    expect(config.jobs).toEqual({
      concurrency: os.availableParallelism(),
      perOrgCap: os.availableParallelism(),
      retentionDays: 30,
    })
    expect(loadConfig({ JOBS_CONCURRENCY: '3' }).jobs.perOrgCap).toBe(3)
    expect(loadConfig({ JOBS_CONCURRENCY: '3', JOBS_PER_ORG: '1' }).jobs.perOrgCap).toBe(1)
    // Sign-in's per-address budget, once auth-routes.ts's own.
    expect(config.signInPerClient).toBe(30)
    // Every rate limit, none left to a `??` at its use.
    expect(config.apiRateLimits).toEqual({
      readsPerMinute: 600,
      writesPerMinute: 120,
      keyRequestsPerMinute: 600,
      failedCredentialsPerMinute: 60,
      mcpMaxBatch: 20,
    })
  })

  it('reads SSO_IDP_ORIGINS as a comma-separated list of origins, none by default', () => {
    expect(loadConfig({}).ssoIdpOrigins).toEqual([])
    expect(
      loadConfig({ SSO_IDP_ORIGINS: ' https://login.microsoftonline.com/, https://*.okta.com ,' })
        .ssoIdpOrigins,
    ).toEqual(['https://login.microsoftonline.com', 'https://*.okta.com'])
  })

  it('serves the built web app from WEB_ROOT when set, resolved to an absolute path', () => {
    const beside = path.join(REPOSITORY_ROOT, 'dist', 'web')
    expect(loadConfig({}).webRoot).toBe(beside)
    expect(loadConfig({ WEB_ROOT: '' }).webRoot).toBe(beside)
    expect(loadConfig({ WEB_ROOT: 'build/web' }).webRoot).toBe(path.resolve('build/web'))
  })

  it('stores files on disk unless S3_BUCKET names an S3-compatible store', () => {
    expect(loadConfig({}).s3).toBeUndefined()
    expect(
      loadConfig({
        S3_BUCKET: 'lexdesk',
        S3_ENDPOINT: 'http://minio:9000',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }).s3,
    ).toEqual({
      endpoint: 'http://minio:9000',
      bucket: 'lexdesk',
      region: 'us-east-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    })
    expect(loadConfig({ S3_BUCKET: 'b', S3_REGION: 'eu-west-3' }).s3).toMatchObject({
      region: 'eu-west-3',
      credentials: undefined,
      forcePathStyle: false,
    })
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(/S3_BUCKET is required/)
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' })).toThrow(/together/)
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      /S3_FORCE_PATH_STYLE/,
    )
  })

  it('reads OCR_LANGUAGES as tesseract codes joined by + and refuses anything else', () => {
    expect(loadConfig({ OCR_LANGUAGES: 'eng+deu' }).ocrLanguages).toBe('eng+deu')
    expect(loadConfig({ OCR_LANGUAGES: 'chi_sim' }).ocrLanguages).toBe('chi_sim')
    expect(() => loadConfig({ OCR_LANGUAGES: 'eng;rm -rf' })).toThrow(/OCR_LANGUAGES/)
    expect(() => loadConfig({ OCR_LANGUAGES: '../eng' })).toThrow(/OCR_LANGUAGES/)
    expect(() => loadConfig({ OCR_LANGUAGES: '' })).toThrow(/OCR_LANGUAGES/)
  })

  it('reads the API rate limits and refuses a limit of 0', () => {
    expect(
      loadConfig({ API_READS_PER_MINUTE: '900', API_WRITES_PER_MINUTE: '30' }).apiRateLimits,
    ).toEqual({
      readsPerMinute: 900,
      writesPerMinute: 30,
      keyRequestsPerMinute: 600,
      failedCredentialsPerMinute: 60,
      mcpMaxBatch: 20,
    })
    expect(
      loadConfig({
        API_KEY_REQUESTS_PER_MINUTE: '60',
        API_FAILED_CREDENTIALS_PER_MINUTE: '5',
        MCP_MAX_BATCH: '4',
      }).apiRateLimits,
    ).toMatchObject({ keyRequestsPerMinute: 60, failedCredentialsPerMinute: 5, mcpMaxBatch: 4 })
    expect(() => loadConfig({ MCP_MAX_BATCH: '101' })).toThrow(/MCP_MAX_BATCH/)
    expect(() => loadConfig({ API_WRITES_PER_MINUTE: '0' })).toThrow(/API_WRITES_PER_MINUTE/)
    expect(() => loadConfig({ API_KEY_REQUESTS_PER_MINUTE: '0' })).toThrow(
      /API_KEY_REQUESTS_PER_MINUTE/,
    )
  })

  it('reads the event-stream caps and refuses a cap of 0', () => {
    expect(
      loadConfig({ EVENT_STREAMS_PER_USER: '3', EVENT_STREAMS_PER_ORG: '40' }).eventStreams,
    ).toEqual({ perUser: 3, perOrg: 40 })
    expect(() => loadConfig({ EVENT_STREAMS_PER_USER: '0' })).toThrow(/EVENT_STREAMS_PER_USER/)
  })

  it('derives PUBLIC_URL from PORT, treats empty strings as unset and trims a trailing slash', () => {
    expect(loadConfig({ PORT: '4000', SMTP_URL: '' }).publicUrl).toBe('http://localhost:4000')
    expect(loadConfig({ PUBLIC_URL: 'https://lexdesk.firm.example/' }).publicUrl).toBe(
      'https://lexdesk.firm.example',
    )
  })

  it('reads TRUST_PROXY as false, true or a proxy list', () => {
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true)
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toBe(
      '127.0.0.1,10.0.0.0/8',
    )
  })

  it('refuses TRUST_PROXY=true in production: the proxies must be listed', () => {
    const production = {
      NODE_ENV: 'production',
      LEXDESK_SECRET: 's'.repeat(32),
      SMTP_URL: 'smtp://mail.test',
    }
    expect(() => loadConfig({ ...production, TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY=true[\s\S]*addresses/,
    )
    expect(loadConfig({ ...production, TRUST_PROXY: '10.0.0.5, 10.1.0.0/16' }).trustProxy).toBe(
      '10.0.0.5,10.1.0.0/16',
    )
    expect(loadConfig({ ...production, TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback')
  })

  it('refuses a TRUST_PROXY entry that is not an address, a CIDR range or a proxy-addr name', () => {
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1,proxy.internal' })).toThrow(
      /TRUST_PROXY[\s\S]*proxy\.internal/,
    )
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/)
  })

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', PUBLIC_URL: 'not a url' })).toThrow(
      /PORT[\s\S]*PUBLIC_URL/,
    )
  })

  it('requires a secret in production and a base URL and model for the openai engine', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/LEXDESK_SECRET is required/)
    expect(() => loadConfig({ AI_ENGINE: 'openai' })).toThrow(
      /openai analysis engine needs AI_BASE_URL and AI_ANALYSIS_MODEL or AI_CHAT_MODEL/,
    )
  })

  it('chooses an engine per capability, with shared and per-capability endpoints', () => {
    const config = loadConfig({
      AI_BASE_URL: 'http://gpu.firm.example:8000/v1',
      AI_API_KEY: 'shared-key',
      AI_CHAT_ENGINE: 'openai',
      AI_CHAT_MODEL: 'llama-3.1-70b',
      AI_STT_ENGINE: 'openai',
      AI_STT_MODEL: 'whisper-large-v3',
      AI_STT_BASE_URL: 'http://whisper.firm.example:9000/v1',
    })
    expect(config.ai.analysis).toEqual({ engine: 'local' })
    expect(config.ai.chat).toEqual({
      engine: 'openai',
      baseUrl: 'http://gpu.firm.example:8000/v1',
      apiKey: 'shared-key',
      model: 'llama-3.1-70b',
    })
    expect(config.ai.stt).toMatchObject({
      baseUrl: 'http://whisper.firm.example:9000/v1',
      model: 'whisper-large-v3',
    })
    expect(() =>
      loadConfig({ AI_EMBED_ENGINE: 'openai', AI_BASE_URL: 'http://x.example' }),
    ).toThrow(/openai embed engine needs AI_EMBED_MODEL/)
  })

  it('gives the openai analysis engine its context size, 100,000 characters by default', () => {
    const env = { AI_ANALYSIS_ENGINE: 'openai', AI_BASE_URL: 'http://x.example/v1' }
    expect(loadConfig({ ...env, AI_ANALYSIS_MODEL: 'm' }).ai.analysis).toMatchObject({
      model: 'm',
      contextChars: 100_000,
    })
    expect(
      loadConfig({ ...env, AI_CHAT_MODEL: 'm', AI_ANALYSIS_CONTEXT_CHARS: '8000' }).ai.analysis,
    ).toMatchObject({ model: 'm', contextChars: 8000 })
    expect(() =>
      loadConfig({ ...env, AI_CHAT_MODEL: 'm', AI_ANALYSIS_CONTEXT_CHARS: '10' }),
    ).toThrow(/AI_ANALYSIS_CONTEXT_CHARS/)
  })

  it('reads the worker pool and extraction limits', () => {
    const config = loadConfig({
      WORKER_THREADS: '3',
      MAX_PDF_PAGES: '10',
      EXTRACTION_TIMEOUT_S: '5',
    })
    expect(config.workers.threads).toBe(3)
    expect(config.extraction).toEqual({ maxPdfPages: 10, timeoutSeconds: 5 })
    expect(loadConfig({ MAX_RECORDING_MINUTES: '90' }).maxRecordingMinutes).toBe(90)
    expect(() => loadConfig({ MAX_RECORDING_MINUTES: '0' })).toThrow(/MAX_RECORDING_MINUTES/)
  })

  it('reads the storage quota per organisation, 10 GiB by default', () => {
    expect(loadConfig({}).storageQuotaBytes).toBe(10 * 1024 ** 3)
    expect(loadConfig({ STORAGE_QUOTA_BYTES: '1048576' }).storageQuotaBytes).toBe(1048576)
    expect(loadConfig({}).importMaxBytes).toBe(20 * 1024 ** 3)
    expect(loadConfig({ IMPORT_MAX_BYTES: '1048576' }).importMaxBytes).toBe(1048576)
    expect(() => loadConfig({ STORAGE_QUOTA_BYTES: '-1' })).toThrow(/STORAGE_QUOTA_BYTES/)
  })

  it('refuses to start in production without SMTP_URL unless MAIL_TRANSPORT=console is explicit', () => {
    const production = { NODE_ENV: 'production', LEXDESK_SECRET: 's'.repeat(32) }
    expect(() => loadConfig(production)).toThrow(/SMTP_URL[\s\S]*MAIL_TRANSPORT=console/)
    expect(loadConfig({ ...production, MAIL_TRANSPORT: 'console' }).mailTransport).toBe('console')
    expect(loadConfig({ ...production, SMTP_URL: 'smtp://mail.firm.example:587' })).toMatchObject({
      mailTransport: 'smtp',
      smtpUrl: 'smtp://mail.firm.example:587',
    })
    expect(loadConfig({}).mailTransport).toBe('console')
    expect(() => loadConfig({ MAIL_TRANSPORT: 'smtp' })).toThrow(
      /MAIL_TRANSPORT=smtp needs SMTP_URL/,
    )
  })
})
