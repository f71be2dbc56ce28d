import { useState } from 'react'
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs'
import { DEFAULT_DOCUMENT_TYPE } from '../document-types'
import { DocumentTypeSelect } from './document-type-select'
import { PasteDocumentForm } from './paste-document-form'
import type { OrgScope } from '../../../lib/org-scope'
import type { DocumentDetail } from '../api/types'
import { UploadDropzone } from './upload-dropzone'
import { usePasteDocument } from '../hooks/use-paste-document'
import { useUploadDocument } from '../hooks/use-upload-document'

interface AddDocumentCardProps {
  /** New documents go to this organisation and app (none: organisation-wide). */
  scope: OrgScope
  /** Called with the stored document, e.g. to open it. */
  onAdded: (document: DocumentDetail) => void
}

/** Add documents by uploading files (picker or drag and drop, several at once) or by pasting text. */
export function AddDocumentCard({ scope, onAdded }: AddDocumentCardProps) {
  const [documentType, setDocumentType] = useState(DEFAULT_DOCUMENT_TYPE)
  const [mode, setMode] = useState('upload')
  const { upload, items, clearFinished } = useUploadDocument(scope, onAdded)
  const { add, isAdding } = usePasteDocument(scope, onAdded)
  return (
    <Card>
      <CardHeader className="p-4 pb-2">
        <CardTitle>Add a document</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 p-4 pt-0">
        <DocumentTypeSelect value={documentType} onChange={setDocumentType} />
        <Tabs value={mode} onValueChange={setMode}>
          <TabsList aria-label="How to add" className="w-full">
            <TabsTrigger value="upload">Upload file</TabsTrigger>
            <TabsTrigger value="paste">Paste text</TabsTrigger>
          </TabsList>
          {/* Both panels stay mounted so pasted text survives a look at the other tab. */}
          <TabsContent value="upload" forceMount hidden={mode !== 'upload'}>
            <UploadDropzone
              items={items}
              onFiles={(files) => upload(files, documentType)}
              onOpen={onAdded}
              onClearFinished={clearFinished}
            />
          </TabsContent>
          <TabsContent value="paste" forceMount hidden={mode !== 'paste'}>
            <PasteDocumentForm
              isAdding={isAdding}
              onAdd={(input) => add({ ...input, documentType })}
            />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  )
}
