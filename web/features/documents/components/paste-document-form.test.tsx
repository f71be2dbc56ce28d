import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { PasteDocumentForm } from './paste-document-form'

describe('PasteDocumentForm', () => {
  it("tells the user the server's limit on pasted text", () => {
    render(<PasteDocumentForm onAdd={() => Promise.resolve(true)} isAdding={false} />)
    expect(screen.getByRole('textbox', { name: 'Document text' })).toHaveAccessibleDescription(
      'Up to 1,000,000 characters; upload longer documents as a file.',
    )
  })
})
