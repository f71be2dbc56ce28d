import { describe, expect, it } from 'vitest'
import { findParties } from './parties'

function names(content: string): string[] {
  return findParties(content).map((party) => party.name)
}

describe('findParties', () => {
  it('keeps each party’s defined term and role as separate fields, with spans', () => {
    const content =
      'SUPPLY AGREEMENT\n\nThis Supply Agreement is made by and between Halvard Mills Ltd. ("Halvard" or the "Supplier") and Pemberton Bakeries, Inc., a Vermont corporation (the "Buyer").\n\nWHEREAS the Buyer bakes bread.'
    const parties = findParties(content)
    expect(parties.map((p) => [p.name, p.definedTerm?.text, p.role])).toEqual([
      ['Halvard Mills Ltd.', 'Halvard', undefined],
      ['Pemberton Bakeries, Inc.', 'Buyer', 'Buyer'],
    ])
    for (const party of parties) {
      expect(content.slice(party.start, party.end)).toBe(party.name)
      const term = party.definedTerm!
      expect(content.slice(term.start, term.end)).toBe(term.text)
    }
  })

  it('reads an opening without "between", with single quotes and an address after the name', () => {
    const content =
      "Kestrel Analytics GmbH, having its registered office at Hauptstrasse 5, Munich ('the Licensor') and Brookfield Data Services LLC, whose principal office is at 12 Elm Street, Boston ('the Licensee') agree to this Licence Agreement dated 3 March 2021."
    const parties = findParties(content)
    expect(parties.map((p) => [p.name, p.role])).toEqual([
      ['Kestrel Analytics GmbH', 'Licensor'],
      ['Brookfield Data Services LLC', 'Licensee'],
    ])
  })

  it('reads "BETWEEN: … AND: …" blocks without returning the connector or the address', () => {
    const content =
      'CONSULTING AGREEMENT\n\nBETWEEN:\n\nNORTHGATE MINERALS CORP., 400 – 789 West Pender Street, Vancouver\n\n(the "Company")\n\nAND:\n\nSILVERLINE ADVISORY LTD., 55 Bay Street, Toronto\n\n(the "Consultant")\n\nWHEREAS the Company needs advice.'
    expect(names(content)).toEqual(['NORTHGATE MINERALS CORP.', 'SILVERLINE ADVISORY LTD.'])
  })

  it('reads numbered parties and "Party A:" labels', () => {
    expect(
      names(
        'This Agreement is dated 1 May 2020 and made between:\n(1) Orchard Lane Holdings Limited, a company registered in England; and\n(2) Tidewater Freight plc, a company registered in Scotland.\n\nBACKGROUND\nThe parties wish to agree.',
      ),
    ).toEqual(['Orchard Lane Holdings Limited', 'Tidewater Freight plc'])
    const labelled = findParties(
      'Cooperation Agreement\nParty A: Lumen Grid Technology Co., Ltd.\nAddress: 8 River Road\nParty B: Harbin Cold Chain Logistics Co., Ltd.\nAddress: 12 Lake Road\nWhereas, the parties wish to cooperate.',
    )
    expect(labelled.map((p) => [p.name, p.role])).toEqual([
      ['Lumen Grid Technology Co., Ltd.', 'Party A'],
      ['Harbin Cold Chain Logistics Co., Ltd.', 'Party B'],
    ])
  })

  it('reads company names without defined terms, skipping a parent named as a description', () => {
    expect(
      names(
        'MARKETING AGREEMENT\n\nBY AND BETWEEN\n\nCOBALT RIVER MEDIA INC.\n\nAND\n\nSUNDIAL PRESS CORP., a subsidiary of Meridian Holdings Inc.\n\nARTICLE 1 DEFINITIONS',
      ),
    ).toEqual(['COBALT RIVER MEDIA INC.', 'SUNDIAL PRESS CORP.'])
  })

  it('skips a cover page and table of contents before the preamble', () => {
    const cover =
      'MASTER SERVICES AGREEMENT\n\nTABLE OF CONTENTS\n1. Definitions 1\n2. Services 3\n3. Fees 5\n\n'
    const content = `${cover}This Master Services Agreement is entered into as of June 2, 2019 by and between Ashgrove Systems, Inc. ("Ashgrove") and Marlow County Hospital ("Client").\n\n1. Definitions.`
    expect(names(content)).toEqual(['Ashgrove Systems, Inc.', 'Marlow County Hospital'])
  })

  it('ends a name where a street address runs into it, with or without a corporate suffix', () => {
    expect(
      names(
        'This Agreement is made between Tsinghua University, No. 1 Qinghuayuan, Haidian District, Beijing ("Tsinghua") and Orion Pharma Oy, Orionintie 1, 02200 Espoo, Finland ("Orion").\n\nWHEREAS the parties wish to cooperate.',
      ),
    ).toEqual(['Tsinghua University', 'Orion Pharma Oy'])
    expect(
      names(
        'This Agreement is made by and between Kessler Werkzeuge GmbH, Hauptstraße 5, 70173 Stuttgart (hereinafter "Kessler") and Nordic Parts AB, Storgatan 3, 111 22 Stockholm, Sweden (hereinafter "Nordic").\n\nRecitals',
      ),
    ).toEqual(['Kessler Werkzeuge GmbH', 'Nordic Parts AB'])
  })

  it('keeps a name whose own words include a number or a street-like word', () => {
    expect(
      names(
        'This Agreement is made between 3M Company ("3M") and Main Street Capital Corporation ("MSCC").\n\nWHEREAS 3M makes tape.',
      ),
    ).toEqual(['3M Company', 'Main Street Capital Corporation'])
  })

  it('reads both columns of a two-column signature block', () => {
    expect(
      names(
        'CONSULTING AGREEMENT\n\nThe parties agree that the consultant will advise the company on its marketing.\n\nIN WITNESS WHEREOF the parties have signed this Agreement.\n\nACME CORPORATION                        BETA CONSULTING LLC\n\nBy: ______________________              By: ______________________\nName: Jane Roe                          Name: John Doe\nTitle: CEO                              Title: Managing Member\n',
      ),
    ).toEqual(['ACME CORPORATION', 'BETA CONSULTING LLC'])
  })

  it('does not take a signature block’s title column for a party', () => {
    expect(
      names(
        'CONSULTING AGREEMENT\n\nThe parties agree as follows.\n\nIN WITNESS WHEREOF the parties have signed.\n\nACME CORPORATION                        Title: Chief Executive Officer\nBy: ______________________\n',
      ),
    ).toEqual(['ACME CORPORATION'])
  })

  it('reads a deed made by one party in favour of another', () => {
    expect(
      names(
        'THIS DEED is made on 1 June 2019 by Kestrel Partners LLP of 4 Hill Street, London W1J 5NE (the "Lender") in favour of Merlin Retail Limited of 9 Park Lane, Manchester (the "Borrower").\n\nIT IS AGREED as follows:',
      ),
    ).toEqual(['Kestrel Partners LLP', 'Merlin Retail Limited'])
  })

  it('returns no parties for a text without a preamble', () => {
    expect(findParties('Notes from the call. We will send the draft on Monday.')).toEqual([])
  })
  it('reads parties "entered into by" without "between", after a long parenthesis', () => {
    expect(
      names(
        'HOSTING AGREEMENT\n\n1. Hosting. This Agreement (including its Exhibit A and all other documents referenced herein) is entered into by Quillon Software Corporation ("Quillon") and Brightwater Corporation ("Customer") for the purpose of hosting.',
      ),
    ).toEqual(['Quillon Software Corporation', 'Brightwater Corporation'])
    expect(
      names(
        'This Agreement is made and entered into by Corvid Media, Inc., a Delaware corporation, and Plover Networks LLC, a Texas limited liability company.',
      ),
    ).toEqual(['Corvid Media, Inc.', 'Plover Networks LLC'])
  })

  it('reads a letter agreement: the addressee above the salutation and the parties after it', () => {
    const content =
      'AGENCY AGREEMENT\n\nMay 1, 2015\n\nHarlow, Pike & Co., Inc.\n10 Main Street\nChicago, Illinois 60606\n\nLadies and Gentlemen:\n\nRiverbend Bancorp, Inc., a Maryland corporation (the "Company"), and Riverbend Savings Bank, a state savings bank (the "Bank"), hereby confirm their agreement with Harlow, Pike & Co., Inc. (the "Agent") as follows:'
    expect(findParties(content).map((p) => [p.name, p.role])).toEqual([
      ['Harlow, Pike & Co., Inc.', undefined],
      ['Riverbend Bancorp, Inc.', 'Company'],
      ['Riverbend Savings Bank', 'Bank'],
    ])
  })

  it('reads unquoted roles such as "(as Company)" but not "(as amended)"', () => {
    const content =
      'MAINTENANCE AGREEMENT\n\nBetween\n\nLUMEN AEREAS S/A (as Company)\n\nand\n\nAVIARA REPAIR SERVICES, G.I.E. (as Repairer)\n\nMarch 9, 2015'
    expect(findParties(content).map((p) => [p.name, p.definedTerm?.text])).toEqual([
      ['LUMEN AEREAS S/A', 'Company'],
      ['AVIARA REPAIR SERVICES, G.I.E.', 'Repairer'],
    ])
    expect(
      names(
        'This Agreement is made between Osprey Foods Ltd ("Osprey") and Wren Logistics Ltd ("Wren") under the Master Agreement (as amended).',
      ),
    ).toEqual(['Osprey Foods Ltd', 'Wren Logistics Ltd'])
  })

  it('never takes a state of incorporation or a heading for a party', () => {
    expect(
      names(
        'This Agreement is made by and between Tamarind Labs, Inc., a Nevada Corporation whose address is 5 Oak Road, Reno, NV 89501 and Juniper Holdings LLC.\n\nIntroduction\n\nTamarind makes software.',
      ),
    ).toEqual(['Tamarind Labs, Inc.', 'Juniper Holdings LLC'])
  })
  it('reads brand names that start in lower case and "(the COMPANY)" in capitals', () => {
    expect(
      names(
        'This Agreement is made by and between Larch Devices Inc., a Delaware corporation ("Larch") and eVolve Networks Inc., a Utah corporation ("eVolve").',
      ),
    ).toEqual(['Larch Devices Inc.', 'eVolve Networks Inc.'])
    expect(
      names(
        'This Agreement is made by and between Dana Whitfield, Individual ("TALENT"), with offices in Ohio; and Kettle Brands, a Nevada Corporation (the COMPANY), with offices in Reno.',
      ),
    ).toEqual(['Dana Whitfield', 'Kettle Brands'])
  })

  it('finds the parties in the signature blocks when the preamble does not name them', () => {
    const content = [
      'SERVICES AGREEMENT',
      'This Agreement sets out the terms on which the services are provided.',
      'The Supplier shall provide the services with reasonable skill and care. '.repeat(60),
      'IN WITNESS WHEREOF the parties have signed this Agreement.',
      'TALLIS SYSTEMS, INC.\n\nBy: /s/ Jane Roe\nName: Jane Roe\nTitle: CEO',
      'For and on behalf of MARLOW HOLDINGS LLC\nBy: ________\nName: John Doe',
    ].join('\n\n')
    expect(names(content)).toEqual(['TALLIS SYSTEMS, INC.', 'MARLOW HOLDINGS LLC'])
  })
  it('keeps a bracketed place and a number that belong to the name', () => {
    expect(
      names(
        'THIS AGREEMENT, made as of 1 May 2020 by and between: Harbin Coatings Trading (Shanghai) Co Ltd hereinafter referred to as ("Harbin") and Lotus Repair Ltd ("Lotus").',
      ),
    ).toEqual(['Harbin Coatings Trading (Shanghai) Co Ltd', 'Lotus Repair Ltd'])
    expect(
      names(
        'THIS AGREEMENT is made on 1 October 2019\n\nBETWEEN:\n\n(1) ACME 2005 LIMITED (registered number 01234567) whose registered office is at 1 High Street, London (the Company)\n\n(2) JANE SMITH (the Executive).\n\nIT IS AGREED as follows:',
      ),
    ).toEqual(['ACME 2005 LIMITED', 'JANE SMITH'])
    expect(
      names(
        'Licence Agreement between QRS-1 Pharma AG Alter Weg 2 6370 Stans Switzerland "Licensor" and Vela Labs S.A. Rua 5 Lisbon "Licensee"',
      ),
    ).toEqual(['QRS-1 Pharma AG', 'Vela Labs S.A.'])
  })

  it('takes every signatory as a party when "the undersigned" agree, not those signing for them', () => {
    const content = [
      'JOINT FILING AGREEMENT',
      'The undersigned hereby agree to file jointly the statement on Schedule 13D with respect to the shares of Pellam Robotics, Inc., a Delaware corporation.',
      'IN WITNESS WHEREOF, the undersigned execute this Agreement as of March 3, 2021. HERON CREEK CAPITAL, L.P. By: Heron Creek GP, LLC, its general partner By: /s/ Ann Lee Name: Ann Lee Title: Authorized Signatory HERON CREEK GP, LLC By: /s/ Ann Lee Name: Ann Lee Title: Authorized Signatory',
      '[Signature Page to Joint Filing Agreement]',
      'Tern Valley Fund (Cayman) Management LP By: /s/ Bo Park Chief Financial Officer Tern Valley Partners II, LLC By: /s/ Bo Park Chief Financial Officer VESTA HOLDINGS S.À R.L. /s/ Bo Park',
    ].join('\n\n')
    expect(names(content)).toEqual([
      'HERON CREEK CAPITAL, L.P.',
      'HERON CREEK GP, LLC',
      'Tern Valley Partners II, LLC',
      'VESTA HOLDINGS S.À R.L.',
    ])
  })

  it('adds the signatories "set forth on the signature page" but not companies in later exhibits', () => {
    const content = [
      'This Cooperation Agreement is made and entered into by Quarry Lane Media, Inc., a Delaware corporation (the "Company"), and each of the persons set forth on the signature page hereto (each, an "Investor").',
      '1. Board. The Company shall appoint one director.',
      'IN WITNESS WHEREOF, the parties have signed this Agreement.',
      'QUARRY LANE MEDIA, INC. By: /s/ Al Roe Name: Al Roe Title: President',
      'INVESTORS: OSPREY MICRO CAP MASTER FUND, LTD. By: /s/ Cy Doe Name: Cy Doe Title: Managing Director',
      'EXHIBIT A - PRESS RELEASE\nQuarry Lane Media today announced the agreement. Counsel was Fenwick Hale LLP.',
    ].join('\n\n')
    expect(names(content)).toEqual([
      'Quarry Lane Media, Inc.',
      'OSPREY MICRO CAP MASTER FUND, LTD.',
    ])
  })

  it('keeps to the preamble when the signatories are not said to be the parties', () => {
    const content = [
      'This Agreement is made by and between Sable Works Inc. ("Sable") and Ferro Tools Ltd ("Ferro").',
      'IN WITNESS WHEREOF the parties have signed. SABLE WORKS INC. By: /s/ A. Roe, for itself and for Sable Leasing LLC By: /s/ A. Roe',
    ].join('\n\n')
    expect(names(content)).toEqual(['Sable Works Inc.', 'Ferro Tools Ltd'])
  })

  it('reads a lettered list "(a) … (b) … (c)" whose parties are described at length', () => {
    const content =
      'This Co-Branding Agreement is entered into on 2 May 2019 by and among (a) Lumen Telecom, S.A. ("Lumen"), a company (société anonyme) incorporated in Luxembourg, with its office at 4 rue Verte, Luxembourg, (b) Lumen Holdings, S.A. ("Lumen Holding"), a company incorporated in Luxembourg; (c) Pagoda Online (BVI) Limited ("Pagoda BVI"), a company incorporated in the British Virgin Islands.\n\nWHEREAS the parties wish to co-brand.'
    expect(names(content)).toEqual([
      'Lumen Telecom, S.A.',
      'Lumen Holdings, S.A.',
      'Pagoda Online (BVI) Limited',
    ])
  })

  it('reads "Party C:" when extraction put it after another party\'s contact details', () => {
    const content =
      'COOPERATION AGREEMENT\nParty A: Harbin Lumen Technology Co., Ltd.\nAddress: 8 River Road   Party B: Qiao Online Housing Co., Ltd.\nFax: 010-1234   Party C: Yisheng Information Services Co., Ltd.\nIn this Agreement, Party A, Party B and Party C are each a "Party".'
    expect(names(content)).toEqual([
      'Harbin Lumen Technology Co., Ltd.',
      'Qiao Online Housing Co., Ltd.',
      'Yisheng Information Services Co., Ltd.',
    ])
  })

  it('keeps the list after "between" when another agreement "between" the parties follows', () => {
    const content =
      'AMENDMENT NO. 1\n\nThis Amendment No. 1, entered into by and between Halden Dairy Foods, LLC ("Halden") Corvo Nutrition Corporation ("Corvo") is effective as of June 1, 2018 and amends that certain Supply Agreement between Halden and Corvo dated July 1, 2017.\n\nWHEREAS, Halden and Corvo entered into the Agreement;'
    expect(names(content)).toEqual(['Halden Dairy Foods, LLC', 'Corvo Nutrition Corporation'])
    // A title's "between" still gives way to the preamble's.
    expect(
      names(
        'Hosting Agreement between Bluebird, Inc. and Atlas Machines Corporation\n\nUnder this Hosting Agreement ("Agreement") between Atlas Machines Corporation ("Atlas") and Bluebird, Inc. ("Customer"), Atlas will host the site.',
      ),
    ).toEqual(['Atlas Machines Corporation', 'Bluebird, Inc.'])
  })

  it('reads each member of a group listed before "(collectively, the … Parties)"', () => {
    const content =
      'This Cooperation Agreement is entered into as of May 4, 2021, by and between Orrin Labs, Inc., a Delaware corporation (the "Company"), and Kestrel Value Management, LLC ("Kestrel Value"), Kestrel Focus Fund L.P., Kestrel Lux Fund, L.P., Roe Research & Management, LLC and Dana Roe (collectively, the "Kestrel Parties").\n\nRECITALS'
    expect(names(content)).toEqual([
      'Orrin Labs, Inc.',
      'Kestrel Value Management, LLC',
      'Kestrel Focus Fund L.P.',
      'Kestrel Lux Fund, L.P.',
      'Roe Research & Management, LLC',
      'Dana Roe',
    ])
    // Roles joined by "and" before the collective term are not parties.
    expect(
      names(
        'This Agreement is made by and between Orrin Labs, Inc. ("Company") and Dana Roe ("Consultant"), Company and Consultant (collectively, the "Parties").',
      ),
    ).toEqual(['Orrin Labs, Inc.', 'Dana Roe'])
  })

  it('drops a heading run into a name and candidates made only of generic words', () => {
    expect(
      names(
        'RESELLER AGREEMENT\n\nThis Reseller Agreement, Kestrel Systems, Inc. ("Kestrel") grants to Larch Devices LLC ("Reseller") the right to resell.',
      ),
    ).not.toContain('RESELLER AGREEMENT')
    expect(
      names(
        'This Agreement is made by and between Orrin Labs, Inc. ("Orrin") and Investor and Company ("Investor").',
      ),
    ).toEqual(['Orrin Labs, Inc.'])
    expect(
      names(
        'SERVICES AGREEMENT January 18, 2020 Ltd.\n\nThis Agreement is made by and between Orrin Labs, Inc. ("Orrin"), A Texas Corporation ("Texas") and Name of Company ("Client").',
      ),
    ).toEqual(['Orrin Labs, Inc.'])
    // "A … Company" can be a name; "The parties to this Agreement are X" keeps X.
    expect(
      names(
        'The parties to this Agreement are The Joint Corp. ("we") and A Seminole Tribal Company ("you").',
      ),
    ).toEqual(['The Joint Corp.', 'A Seminole Tribal Company'])
  })

  it('reads the addressee of a letter whose address block was flattened onto one line', () => {
    const content =
      'AGENCY AGREEMENT\n\nHarlow, Pike & Co., Inc.  Investment Banking  10 Main Street, Suite 300  Chicago, Illinois 60606\n\nLadies and Gentlemen:\n\nRiverbend Bancorp, Inc., a Maryland corporation (the "Company"), hereby confirms its agreement with Harlow, Pike & Co., Inc. (the "Agent") as follows:'
    expect(names(content)).toEqual(['Harlow, Pike & Co., Inc.', 'Riverbend Bancorp, Inc.'])
    // An address line alone is never the addressee.
    expect(
      names(
        'AGENCY AGREEMENT\n\n10 Main Street, Suite 300, Chicago, Illinois 60606\n\nLadies and Gentlemen:\n\nRiverbend Bancorp, Inc., a Maryland corporation (the "Company"), hereby confirms its agreement.',
      ),
    ).toEqual(['Riverbend Bancorp, Inc.'])
  })

  it('ends a name at a registration number that follows it, as non-US drafting adds', () => {
    expect(
      names(
        'This Distribution Agreement is made between Southern Cross Wines (Pty) Ltd, ACN 123 456 789, of 3 Vine Street, Adelaide ("Supplier") and Nordic Beverages AB, Reg. No. 556677-8899 ("Distributor").\n\n1. Appointment.',
      ),
    ).toEqual(['Southern Cross Wines (Pty) Ltd', 'Nordic Beverages AB'])
    expect(
      names(
        'This Agreement is made between Vesterhavet Shipping ApS, CVR 12345678 ("Owner") and Tagus Logistica Lda, NIPC 501234567 ("Charterer").\n\n1. Charter.',
      ),
    ).toEqual(['Vesterhavet Shipping ApS', 'Tagus Logistica Lda'])
    // Negative: a number that is part of the name stays ("Studio 54 Ltd", "3M Company").
    expect(
      names('This Agreement is made between Studio 54 Ltd ("Studio") and 3M Company ("3M").\n\n1.'),
    ).toEqual(['Studio 54 Ltd', '3M Company'])
  })

  it('keeps the whole of a multi-word corporate form ("S.A. de C.V.", "Sdn. Bhd.", "GmbH & Co. KG")', () => {
    expect(
      names(
        'This Agreement is made between Polaris Componentes S.A. de C.V. ("Polaris"), Melaka Rubber Sdn. Bhd. ("Melaka") and Rhein Logistik GmbH & Co. KG ("Rhein").\n\n1. Supply.',
      ),
    ).toEqual([
      'Polaris Componentes S.A. de C.V.',
      'Melaka Rubber Sdn. Bhd.',
      'Rhein Logistik GmbH & Co. KG',
    ])
    // Negative: "S.A." alone is still the whole form when nothing follows it.
    expect(
      names(
        'This Agreement is made between Lusitania Componentes S.A. ("Buyer") and Halden B.V. ("Seller").\n\n1.',
      ),
    ).toEqual(['Lusitania Componentes S.A.', 'Halden B.V.'])
  })
})

describe('findParties on openings drafted outside the US (issue 25)', () => {
  it.each([
    [
      'an English opening "BY AND BETWEEN (1) … LIMITED … whose registered office is at …"',
      'THIS AGREEMENT is made on 3 March 2021\n\nBY AND BETWEEN\n\n(1) ALDERTON LIMITED, a company incorporated in England and Wales (company number 01234567) whose registered office is at 1 King Street, London EC2V 8AU ("Alderton"); and\n\n(2) BRIGHTWAY SYSTEMS PLC, a company incorporated in England (company no. 07654321) whose registered office is at 20 Queen Street, Manchester M2 5HX ("Brightway").\n\nBACKGROUND\n\n(A) Alderton makes valves.',
      ['ALDERTON LIMITED', 'BRIGHTWAY SYSTEMS PLC'],
    ],
    [
      'a "PARTIES" heading with unquoted roles',
      'THIS AGREEMENT is dated 3 March 2021\n\nPARTIES\n\n(1) Alderton Limited incorporated and registered in England and Wales with company number 01234567 whose registered office is at 1 King Street, London EC2V 8AU (Supplier).\n\n(2) Brightway Systems plc incorporated and registered in England and Wales with company number 07654321 whose registered office is at 20 Queen Street, Manchester M2 5HX (Customer).\n\nBACKGROUND\n\n(A) The Supplier makes valves.',
      ['Alderton Limited', 'Brightway Systems plc'],
    ],
    [
      'an Indian opening whose terms run on ("which expression shall … include its successors")',
      'This Consultancy Agreement is made at Mumbai on this 5th day of April, 2019 BY AND BETWEEN Kestrel Softech Private Limited, a company incorporated under the Companies Act, 1956, having its registered office at 12 MG Road, Bengaluru 560001 (hereinafter referred to as the "Company", which expression shall unless repugnant to the context or meaning thereof include its successors and permitted assigns) of the ONE PART; AND Sarvana Consulting LLP, a limited liability partnership registered under the Limited Liability Partnership Act, 2008, having its office at 4 Park Street, Kolkata 700016 (hereinafter referred to as the "Consultant", which expression shall include its successors) of the OTHER PART.\n\nWHEREAS the Company needs advice.',
      ['Kestrel Softech Private Limited', 'Sarvana Consulting LLP'],
    ],
    [
      'an Australian deed with ACN/ABN numbers and bare short names',
      'THIS DEED is dated 1 July 2020\n\nPARTIES\n\nWattle Mining Pty Ltd ACN 123 456 789 of Level 5, 100 George Street, Sydney NSW 2000 (Wattle)\n\nRiverbend Holdings Pty Ltd ABN 12 345 678 901 of 22 Collins Street, Melbourne VIC 3000 (Riverbend)\n\nBACKGROUND\n\nA. Wattle owns a mine.',
      ['Wattle Mining Pty Ltd', 'Riverbend Holdings Pty Ltd'],
    ],
    [
      '"entered into by" without "between", with a GmbH',
      "SUPPLY AGREEMENT\n\nThis Agreement is entered into by Solvane, Inc. ('Supplier') and Marten GmbH ('Customer') with effect from 1 May 2020.\n\n1. Supply. Supplier shall supply the goods.",
      ['Solvane, Inc.', 'Marten GmbH'],
    ],
    [
      'parties named only in a two-column signature block',
      'MARKETING AGREEMENT\n\n1. The Marketer shall promote the Products.\n\n2. This Agreement is governed by the laws of Ontario.\n\nAGREED AND ACCEPTED:\n\nNORTHWIND TRADING LLC                    HALCYON FOODS, INC.\n\nBy: ______________                        By: ______________\nName: Jane Roe                            Name: John Doe\nTitle: CEO                                Title: President',
      ['NORTHWIND TRADING LLC', 'HALCYON FOODS, INC.'],
    ],
    [
      '"Party A:" / "Party B:" lines followed by addresses',
      "COOPERATION AGREEMENT\n\nParty A: Shenzhen Bright Star Technology Co., Ltd.\nAddress: 18 Keyuan Road, Nanshan District, Shenzhen\n\nParty B: Lumen Media Limited\nAddress: 9 Queen's Road Central, Hong Kong\n\nParty A and Party B agree as follows:",
      ['Shenzhen Bright Star Technology Co., Ltd.', 'Lumen Media Limited'],
    ],
    [
      'names running straight into street addresses',
      'LICENSE AGREEMENT\n\nThis License Agreement is made between Qorvane Technologies Inc. 1200 Harbor Blvd, Suite 300, San Jose, CA 95110 and Lumetra LLC 55 Elm Street, Boston, MA 02110, effective June 1, 2020.\n\n1. License.',
      ['Qorvane Technologies Inc.', 'Lumetra LLC'],
    ],
    [
      'German drafting: addresses after the names and "– hereinafter … –" terms',
      'DISTRIBUTION AGREEMENT\n\nbetween\n\nFabrikon GmbH, Hauptstraße 5, 80331 München, Germany\n– hereinafter referred to as "Fabrikon" –\n\nand\n\nNordic Parts AB, Storgatan 1, 111 23 Stockholm, Sweden\n– hereinafter referred to as "Distributor" –\n\nPreamble\n\nFabrikon makes parts.',
      ['Fabrikon GmbH', 'Nordic Parts AB'],
    ],
    [
      'English "made … by X … and Y" without "between"',
      'THIS AGREEMENT is made the 2nd day of June 2018 by Harrow Estates Limited of 4 Mill Lane, Leeds LS1 4AB (the "Landlord") and Pickering Retail Limited of 9 Bridge Street, York YO1 6DD (the "Tenant").\n\nIT IS AGREED as follows:',
      ['Harrow Estates Limited', 'Pickering Retail Limited'],
    ],
    [
      'British unquoted title-case terms "(the Company)" with numbers inline',
      'SERVICE AGREEMENT\n\nTHIS AGREEMENT is made on 1 October 2019\n\nBETWEEN: (1) HARTWELL 2010 LIMITED (registered number 01234567) whose registered office is at 5 Fleet Street, London EC4Y 1AA (the Company) (2) MARGARET OKAFOR (the Executive).\n\nIT IS AGREED as follows:',
      ['HARTWELL 2010 LIMITED', 'MARGARET OKAFOR'],
    ],
    [
      'a loan-out company "for services of" an individual',
      'ENDORSEMENT AGREEMENT\n\nThis Endorsement Agreement is entered into on May 2, 2016 by and between Tidewater Talent, LLC ("Lender"), for services of Marcus Delaney ("Athlete"), and Brightfield Nutrition, Inc. ("Company").\n\nRECITALS',
      ['Tidewater Talent, LLC', 'Marcus Delaney', 'Brightfield Nutrition, Inc.'],
    ],
    [
      'an agency "agent for" the talent, with English addresses',
      'TALENT AGREEMENT made as of 1 March 2014 by and between Orwell Learning Limited of 3 Mill Road, Leeds LS1 2AB ("Company") and Premier Speakers of 9 High Street, York YO1 7HH ("Agency") agent for Sofia Laurent ("Talent").\n\nWITNESSETH:',
      ['Orwell Learning Limited', 'Premier Speakers', 'Sofia Laurent'],
    ],
    [
      'a letter that retains an individual named before the role',
      'CONSULTING AGREEMENT\n\nJuly 20, 2018\n\nTomasz Brandt\n\nDear Tomasz:\n\nVelora Therapeutics, Inc., a Delaware corporation (the "Company"), is pleased to offer this Consulting Agreement (this "Agreement") to retain Tomasz Brandt ("Consultant") on the following terms:\n\n1. Services.',
      ['Velora Therapeutics, Inc.', 'Tomasz Brandt'],
    ],
    [
      'bare names after "between", one written in lower case',
      'Managed Hosting Agreement\n\nThis is a managed hosting agreement between Fernleaf.com and quarry labs. The term is 12 months beginning March 1, 2005.\n\nIncluded Services',
      ['Fernleaf.com', 'quarry labs'],
    ],
    [
      'lines labelled by role with a colon, and a Spanish S.L.',
      'LICENCE AGREEMENT\n\nLicensor: Marisol Software S.L., Calle Mayor 3, Madrid\nLicensee: Tern Logistics Limited, 4 Dock Road, Hull\n\nThe parties agree as follows:\n\n1. Licence.',
      ['Marisol Software S.L.', 'Tern Logistics Limited'],
    ],
    [
      'a Latin American form: roles in capitals before the names, tax numbers after',
      'TRANSPORT CONTRACT\nDate Bogota January 30, 2012\nSENDER ANDES CRUDE EXPLORATION LIMITED\nTAX ID 830.000.000-1\nCARRIER ORINOCO PIPELINES S.A. TAX ID 899.000.000-1\nTerm six months.',
      ['ANDES CRUDE EXPLORATION LIMITED', 'ORINOCO PIPELINES S.A.'],
    ],
  ])('reads %s', (_, content, expected) => {
    expect(names(content)).toEqual(expected)
  })

  it.each([
    [
      'a bare "between" that lists no names',
      'Cooperation Agreement\n\nThis is an agreement between the parties and their affiliates. It has no defined terms.\n\n1. Scope.',
    ],
    [
      'a lower-case "(the other party)" or a role described in a clause',
      'NOTICE\n\nThis letter is sent between offices (the other party) to confirm receipt.\n\nNothing else is agreed.',
    ],
  ])('names no party for %s', (_, content) => {
    expect(names(content)).toEqual([])
  })

  it('takes a role label only with a colon or in capitals', () => {
    const content =
      'MEMO\n\nCustomer Acme Holdings Ltd will call on Monday.\nSUPPLIER Birch Parts Ltd\n\nNo agreement is made.'
    const parties = findParties(content)
    expect(parties.find((p) => p.name.endsWith('Acme Holdings Ltd'))?.role).toBeUndefined()
    expect(parties.find((p) => p.name === 'Birch Parts Ltd')?.role).toBe('SUPPLIER')
  })
})
