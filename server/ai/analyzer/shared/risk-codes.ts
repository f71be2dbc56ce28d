/**
 * The risk codes shared by every analysis engine: the local rules raise them and the OpenAI
 * engine is asked to use the same ones, so the web and stored analyses see one vocabulary.
 */

/** Every risk code an engine raises (kebab-case, stable: stored analyses keep them). */
export const RISK_CODES = [
  'liability-missing',
  'liability-uncapped',
  'indemnity-broad',
  'auto-renewal-short-notice',
  'termination-for-convenience',
  'exclusivity',
  'non-compete',
  'change-of-control',
  'governing-law-missing',
  'governing-law-unclear',
  'liability-carve-out',
  'liquidated-damages',
  'ip-assignment',
  'minimum-commitment',
  'most-favoured-nation',
  'termination-for-convenience-unilateral',
  'ip-assignment-missing',
  'severance-exit-fee',
  'equity-funding-commitment',
  'indemnity-one-sided',
  'liability-exclusion',
] as const
