import { LabelledSelect } from '../../../components/labelled-select'
import { DOCUMENT_TYPES } from '../document-types'

interface DocumentTypeSelectProps {
  value: string
  onChange: (value: string) => void
}

/** Labelled 'Document type' select over the suggested types (the kit's native select). */
export function DocumentTypeSelect({ value, onChange }: DocumentTypeSelectProps) {
  return (
    <LabelledSelect
      label="Document type"
      className="gap-1.5 font-medium"
      selectClassName="font-normal"
      value={value}
      onValueChange={onChange}
      options={DOCUMENT_TYPES}
    />
  )
}
