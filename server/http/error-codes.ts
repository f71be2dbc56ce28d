/**
 * The closed list of machine-readable error codes an AppError may carry (the `code` of a problem
 * body). Adding a failure means adding its code here, so clients can rely on the list; the
 * OpenAPI document and docs list them from this constant.
 */
export const ERROR_CODES = [
  'analysis_failed',
  'app_exists',
  'app_not_found',
  'audio_too_long',
  'bad_audio',
  'bad_callback_url',
  'bad_document_type',
  'bad_embedding',
  'bad_sort_key',
  'bad_upload',
  'chat_failed',
  'consent_required',
  'conversation_not_found',
  'corrupt_file',
  'cross_origin_request',
  'document_not_found',
  'email_too_long',
  'embedding_failed',
  'empty_csv',
  'empty_file',
  'empty_text',
  'engine_unavailable',
  'entity_not_found',
  'extraction_timeout',
  'extraction_too_large',
  'file_missing',
  'file_not_found',
  'file_too_large',
  'forbidden',
  'import_failed',
  'internal_error',
  'job_finished',
  'job_not_found',
  'no_text',
  'not_document_creator',
  'not_recording_creator',
  'nul_character',
  'org_missing',
  'organization_not_found',
  'rate_limited',
  'recording_not_found',
  'speech_failed',
  'too_many_pages',
  'unauthenticated',
  'unknown_job_kind',
  'unsupported_type',
  'validation_failed',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** Whether `value` is one of ERROR_CODES. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value)
}
