/**
 * "We act for": the side of a contract the firm's client is on, chosen per document as one of the
 * extracted parties or as a role (licensee, customer, employee…), and the party it resolves to.
 */
import { z } from 'zod'
import { matchParty } from './local/risk-orientation'
import type { Party } from './types'

/**
 * The roles a user may choose, each with the words a contract uses for it (a party's extracted
 * `role` or defined term) and the role of the other side. Drafting usage, not any one file:
 * a "Client" or "Purchaser" is the customer, a "Service Provider" or "Vendor" the supplier.
 */
const ROLES = {
  licensee: { words: ['licensee', 'sub-licensee', 'sublicensee'], other: 'licensor' },
  licensor: { words: ['licensor'], other: 'licensee' },
  customer: { words: ['customer', 'client', 'buyer', 'purchaser'], other: 'supplier' },
  supplier: {
    words: [
      'supplier',
      'vendor',
      'provider',
      'service provider',
      'seller',
      'manufacturer',
      'contract manufacturer',
      'contractor',
      'consultant',
      'developer',
    ],
    other: 'customer',
  },
  distributor: { words: ['distributor', 'reseller', 'dealer', 'marketer'], other: 'supplier' },
  franchisee: { words: ['franchisee'], other: 'franchisor' },
  franchisor: { words: ['franchisor'], other: 'franchisee' },
  employee: { words: ['employee', 'executive'], other: 'employer' },
  employer: { words: ['employer'], other: 'employee' },
  lender: { words: ['lender', 'bank'], other: 'borrower' },
  borrower: { words: ['borrower'], other: 'lender' },
  landlord: { words: ['landlord', 'lessor'], other: 'tenant' },
  tenant: { words: ['tenant', 'lessee'], other: 'landlord' },
} as const satisfies Record<string, { words: readonly string[]; other: string }>

/** A role the firm's client may hold. */
export const PartyRole = z.enum(
  Object.keys(ROLES) as [keyof typeof ROLES, ...(keyof typeof ROLES)[]],
)
export type PartyRole = z.infer<typeof PartyRole>

/** The stored choice: a party by its extracted name, or a role. */
export const WeActFor = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('party'),
      party: z.string().trim().min(1).max(300).describe('An extracted party name'),
    }),
    z.object({ kind: z.literal('role'), role: PartyRole }),
  ])
  .meta({ id: 'WeActFor' })
export type WeActFor = z.infer<typeof WeActFor>

/** A stored choice (the documents row's jsonb), or null when none or not a valid choice. */
export function storedWeActFor(value: unknown): WeActFor | null {
  const parsed = WeActFor.safeParse(value)
  return parsed.success ? parsed.data : null
}

/**
 * The party `choice` names among `parties`, or null when none does. A party choice matches a
 * party's name, defined term or role (matchParty); a role matches the party whose extracted role
 * or defined term is one of the role's words, or, in a two-party contract, the party facing the
 * one that holds the other side's role (the party opposite the "Licensor" is the licensee).
 */
export function partyWeActFor(choice: WeActFor, parties: readonly Party[]): Party | null {
  if (choice.kind === 'party') return matchParty(choice.party, parties)
  const holder = holderOf(choice.role, parties)
  if (holder) return holder
  const opposite = holderOf(ROLES[choice.role].other, parties)
  if (!opposite || parties.length !== 2) return null
  return parties.find((party) => party !== opposite) ?? null
}

function holderOf(role: PartyRole, parties: readonly Party[]): Party | null {
  const words: readonly string[] = ROLES[role].words
  return (
    parties.find((party) =>
      [party.role, party.definedTerm?.text].some(
        (label) => label !== undefined && words.includes(roleWord(label)),
      ),
    ) ?? null
  )
}

function roleWord(label: string): string {
  return label
    .toLowerCase()
    .replace(/^the\s+/, '')
    .replace(/\s+/g, ' ')
    .trim()
}
