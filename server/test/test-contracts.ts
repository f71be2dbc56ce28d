/**
 * Small contracts written for the analyzer tests (never copied from a dataset): each exercises a
 * known set of key terms and risks, and together they cover CRLF line endings and non-ASCII text.
 */

/** A services agreement that should raise most risk rules. */
export const RISKY_SERVICES_AGREEMENT = `MASTER SERVICES AGREEMENT

This Master Services Agreement (the "Agreement") is entered into as of March 3, 2021 by and between Northwind Analytics, Inc., a Delaware corporation ("Provider"), and Contoso Retail LLC, a New York limited liability company ("Customer").

1. Term. This Agreement commences on the Effective Date and continues for an initial term of two (2) years. Thereafter this Agreement shall automatically renew for successive one (1) year periods unless either party gives written notice of non-renewal at least fifteen (15) days prior to the end of the then-current term.

2. Termination. Provider may terminate this Agreement at any time for convenience upon ten (10) days written notice to Customer.

3. Exclusivity. During the Term, Customer shall purchase analytics services exclusively from Provider and shall not engage any other provider of similar services.

4. Non-Competition. Customer shall not, directly or indirectly, engage in any business that competes with Provider anywhere in North America for three (3) years after termination.

5. Assignment. Neither party may assign this Agreement without consent; any change of control of Customer shall be deemed an assignment requiring Provider's prior written consent.

6. Indemnification. Customer shall indemnify, defend and hold harmless Provider from and against any and all claims, losses and expenses arising out of or relating to this Agreement, regardless of any negligence of Provider.

7. Limitation of Liability. In no event shall Provider be liable for any indirect, incidental or consequential damages.

8. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of New York, without regard to its conflict of laws principles.
`

/** A balanced agreement that should raise none of the risk rules. */
export const BALANCED_SUPPLY_AGREEMENT = `SUPPLY AGREEMENT

This Supply Agreement is made on 1 July 2019 between Fabrikam Components Limited ("Supplier") and Tailspin Toys plc ("Buyer").

1. Supply. Supplier will sell and Buyer will buy the products listed in the Schedule at the prices stated there.

2. Term. This Agreement shall remain in effect until June 30, 2022 and shall then expire.

3. Liability. Each party's total aggregate liability under this Agreement shall not exceed the fees paid in the twelve months before the claim.

4. Law. This Agreement and any dispute arising from it shall be governed by the laws of England and Wales.
`

/** A short agreement with CRLF line endings and non-ASCII characters before every clause. */
export const UNICODE_CRLF_AGREEMENT = [
  'ACCORD DE LICENCE — LICENCE AGREEMENT ✓',
  '',
  'This Licence Agreement is dated as of the 5th day of January, 2020 between Société Générale Logiciels S.A. (“Licensor”) and Ōmura Kōgyō K.K. (“Licensee”).',
  '',
  '1. Grant. Licensor grants Licensee a non-exclusive licence to use the Software (the “Σ-Suite”) in Québec and Zürich 🚀 during the Term.',
  '',
  '2. Renewal. The Term shall be renewed automatically for successive periods of twelve (12) months unless either party notifies the other at least ninety (90) days before expiry.',
  '',
  '3. Liability. The aggregate liability of Licensor shall not exceed €50 000.',
  '',
  '4. Governing law. This Agreement is governed by the laws of the Province of Ontario and the federal laws of Canada applicable therein.',
  '',
].join('\r\n')

/** A contract of roughly `chars` characters made by repeating the risky agreement's clauses. */
export function longContract(chars: number): string {
  const parts: string[] = []
  let length = 0
  for (let i = 1; length < chars; i += 1) {
    const part = RISKY_SERVICES_AGREEMENT.replace(/^(\d+)\./gm, (_, n: string) => `${i}.${n}.`)
    parts.push(part)
    length += part.length
  }
  return parts.join('\n')
}
