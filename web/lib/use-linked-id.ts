/**
 * The object a link opened on a screen, kept in the address as `?<param>=<id>` (as the documents
 * screen keeps `?document=`), so the audit log and anyone pasting the address open it again.
 */
import { useSearchParams } from 'react-router'

/**
 * The id in search parameter `param` (null when absent) and a setter that writes it (null
 * removes it), keeping the other parameters (`?app=` and the like) and replacing the history
 * entry.
 */
export function useLinkedId(param: string): [string | null, (id: string | null) => void] {
  const [searchParams, setSearchParams] = useSearchParams()
  const setLinkedId = (id: string | null) =>
    setSearchParams(
      (params) => {
        if (id === null) params.delete(param)
        else params.set(param, id)
        return params
      },
      { replace: true },
    )
  return [searchParams.get(param), setLinkedId]
}
