/**
 * URL slug from a display name: lower-case ASCII letters, digits and single dashes, at most 48
 * characters ('Smith & Partners LLP' → 'smith-partners-llp'); 'org' when nothing is left.
 */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // strip accents after decomposition
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '')
  return slug || 'org'
}
