/**
 * CSV records as every export of the API writes them (RFC 4180, every value quoted): inner quotes
 * doubled, objects as JSON, null as an empty value, and formula neutralisation (OWASP "CSV
 * Injection"): a value a spreadsheet would run as a formula, i.e. starting with = + - @ tab or
 * carriage return, is prefixed with a single quote `'`. So that an import can undo exactly that,
 * a value already starting with `'` is prefixed too; restoreFormula removes one leading `'` when
 * it is followed by one of those characters or another `'`. Used by the entities export and
 * import and the audit export.
 */

/** Characters that make a spreadsheet read a cell as a formula (OWASP CSV Injection). */
const FORMULA_START = /^[=+\-@\t\r]/
/** What export prefixed with `'`: a formula start, or a `'` itself. */
const PREFIXED = /^'[=+\-@\t\r']/

/** `'`-prefixes a value that would run as a formula (or already starts with `'`). */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) || value.startsWith("'") ? `'${value}` : value
}

/** Exactly undoes neutraliseFormula. */
export function restoreFormula(value: string): string {
  return PREFIXED.test(value) ? value.slice(1) : value
}

/** One CSV value: null → `""`, objects → JSON, all neutralised, quoted, quotes doubled. */
export function csvCell(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value)
  return `"${neutraliseFormula(text).replaceAll('"', '""')}"`
}

/** One CSV record ending in CRLF (RFC 4180). */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`
}
