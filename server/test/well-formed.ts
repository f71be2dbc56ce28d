/**
 * Whether `text` holds no unpaired UTF-16 surrogate (String.prototype.isWellFormed, ES2024, which
 * the server's `lib` (ES2023) does not declare): what PostgreSQL's JSON can hold.
 */
export function isWellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text)
}
