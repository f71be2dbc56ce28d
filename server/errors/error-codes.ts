/**
 * The closed list of machine-readable error codes a problem body may carry (its `code`): every
 * AppError's, and those that errors of the HTTP framework and of better-auth are mapped onto
 * (`codeForStatus`). Adding a failure means adding its code here, so clients can rely on the list;
 * the OpenAPI document's Problem schema enumerates this constant.
 *
 * Each code has one HTTP status, so `AppError(code, …)` cannot pair a code with a wrong one
 * (4xx for the caller's fault, 5xx for ours).
 */
export const ERROR_STATUS = {
  analysis_failed: 502,
  analysis_timeout: 422,
  analysis_too_large: 422,
  api_key_not_found: 404,
  app_exists: 409,
  app_not_found: 404,
  archive_invalid: 422,
  archive_line_too_long: 413,
  archive_too_large: 413,
  audio_timeout: 422,
  audio_too_long: 413,
  bad_audio: 400,
  bad_callback_url: 400,
  bad_object_name: 400,
  bucket_exists: 409,
  bucket_not_found: 404,
  bucket_read_only: 403,
  bad_document_type: 400,
  bad_embedding: 400,
  bad_request: 400,
  bad_review_column: 400,
  bad_sort_key: 400,
  bad_upload: 400,
  bad_url: 400,
  body_too_large: 413,
  chat_failed: 502,
  comparison_failed: 422,
  comparison_not_found: 404,
  comparison_not_ready: 409,
  comparison_stale: 409,
  comparison_too_large: 413,
  conflict: 409,
  consent_required: 403,
  conversation_not_found: 404,
  corrupt_file: 400,
  credential_outlives_parent: 403,
  cross_origin_request: 403,
  database_unavailable: 503,
  domain_not_verified: 422,
  shutting_down: 503,
  document_not_found: 404,
  email_too_long: 400,
  embedding_failed: 502,
  empty_csv: 400,
  empty_file: 400,
  empty_text: 400,
  engine_unavailable: 503,
  entity_not_found: 404,
  export_busy: 429,
  external_assistants_disabled: 403,
  extraction_timeout: 422,
  extraction_too_large: 422,
  file_missing: 400,
  file_not_found: 404,
  file_too_large: 413,
  forbidden: 403,
  headers_too_large: 431,
  import_failed: 400,
  insufficient_scope: 403,
  internal_error: 500,
  invitation_not_found: 404,
  job_finished: 409,
  job_input_invalid: 500,
  job_not_found: 404,
  legal_hold: 409,
  legal_hold_not_found: 404,
  mcp_batch_too_large: 413,
  member_not_found: 404,
  method_not_allowed: 405,
  no_page_images: 409,
  no_text: 422,
  not_document_creator: 403,
  not_found: 404,
  not_recording_creator: 403,
  object_not_found: 404,
  ocr_failed: 422,
  ocr_language_missing: 503,
  ocr_not_needed: 409,
  ocr_timeout: 422,
  nul_character: 400,
  org_missing: 400,
  organization_limit_reached: 403,
  organization_not_found: 404,
  outside_app_scope: 403,
  path_too_long: 414,
  playbook_check_needs_analysis: 409,
  playbook_check_not_found: 404,
  playbook_check_stale: 409,
  playbook_not_approved: 409,
  playbook_not_found: 404,
  playbook_version_approved: 409,
  playbook_version_not_found: 404,
  range_not_satisfiable: 416,
  rate_limited: 429,
  recording_not_found: 404,
  review_cell_not_found: 404,
  review_column_not_found: 404,
  review_not_found: 404,
  review_too_large: 413,
  request_timeout: 408,
  retention_policy_not_found: 404,
  route_not_found: 404,
  session_required: 403,
  sso_provider_not_found: 404,
  sso_required: 403,
  signed_link_invalid: 403,
  speech_failed: 502,
  sql_busy: 503,
  sql_failed: 400,
  sql_out_of_memory: 422,
  sql_refused: 400,
  sql_timeout: 422,
  sql_too_costly: 422,
  sql_too_large: 422,
  storage_quota_exceeded: 413,
  text_too_long: 413,
  too_many_pages: 413,
  token_not_found: 404,
  too_many_sockets: 429,
  too_many_streams: 429,
  unauthenticated: 401,
  unknown_job_kind: 500,
  unknown_party: 400,
  unpacked_too_large: 413,
  unprocessable: 422,
  unsupported_media_type: 415,
  unsupported_type: 415,
  validation_failed: 400,
} as const satisfies Record<string, number>

export type ErrorCode = keyof typeof ERROR_STATUS

/** The closed list, in the order of ERROR_STATUS (the OpenAPI Problem schema's enum). */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]

/** The HTTP status every problem with `code` is answered with. */
export function statusForCode(code: ErrorCode): number {
  return ERROR_STATUS[code]
}

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
