/**
 * The closed list of machine-readable error codes a problem body may carry (its `code`): every
 * AppError's, and those that errors of the HTTP framework and of better-auth are mapped onto
 * (`codeForStatus`). Adding a failure means adding its code here, so clients can rely on the list;
 * the OpenAPI document's Problem schema enumerates this constant.
 */
export const ERROR_CODES = [
  'analysis_failed',
  'analysis_timeout',
  'analysis_too_large',
  'app_exists',
  'app_not_found',
  'audio_timeout',
  'audio_too_long',
  'bad_audio',
  'bad_callback_url',
  'bad_document_type',
  'bad_embedding',
  'bad_request',
  'bad_sort_key',
  'bad_upload',
  'bad_url',
  'body_too_large',
  'chat_failed',
  'conflict',
  'consent_required',
  'conversation_not_found',
  'corrupt_file',
  'cross_origin_request',
  'database_unavailable',
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
  'headers_too_large',
  'import_failed',
  'internal_error',
  'job_finished',
  'job_not_found',
  'method_not_allowed',
  'no_text',
  'not_document_creator',
  'not_found',
  'not_recording_creator',
  'nul_character',
  'org_missing',
  'organization_not_found',
  'path_too_long',
  'range_not_satisfiable',
  'rate_limited',
  'recording_not_found',
  'request_timeout',
  'route_not_found',
  'speech_failed',
  'text_too_long',
  'too_many_pages',
  'too_many_streams',
  'unauthenticated',
  'unknown_job_kind',
  'unpacked_too_large',
  'unprocessable',
  'unsupported_media_type',
  'unsupported_type',
  'validation_failed',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** Whether `value` is one of ERROR_CODES. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value)
}

/**
 * The generic code for an error that brings none of ERROR_CODES (an error of Fastify, of a
 * Fastify plugin or of better-auth, whose own codes are an open set): chosen by its HTTP `status`.
 * Any other 4xx is `bad_request`; any 5xx `internal_error`.
 */
export function codeForStatus(status: number): ErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'bad_request')
}

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'body_too_large',
  414: 'path_too_long',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
}
