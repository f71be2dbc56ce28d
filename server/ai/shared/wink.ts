/**
 * wink-nlp with its memory bounded (the one way the server builds a wink-nlp instance).
 *
 * wink-nlp keeps every word it has not seen in its model in the instance's lexicon, for the life
 * of the instance (wink-nlp 2.4, src/cache.js `add`): about 250 bytes a new word, measured here
 * on 1,000,000 unseen words (+257 MiB of heap), and never freed, so a long-running server that
 * reads documents grows without end. Those words also change how it splits text it reads later
 * (src/tokenizer.js `processUnk`: "U.S.C.." splits otherwise once "U.S.C" has been read), so one
 * document's sentences can depend on what the instance read before.
 * `boundedWink` answers readDoc from one instance and replaces it by a fresh one once it has read
 * RECYCLE_CHARS characters: memory stays bounded, at the cost of building an instance (about
 * 200 ms on this machine) every RECYCLE_CHARS characters. What a document reads can still depend
 * on what the instance read before it since its last renewal (decision 0145).
 */
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'

/**
 * The model as every instance is built from. wink-eng-lite-web-model 1.8's `metaCER` loader
 * (dist/load-cer-meta-model.js) assigns `JSON.stringify` of its cached value back to that value on
 * every call, so each new instance stringified the previous string again: the string grew about
 * fourfold an instance (82 KB, 325 KB, … 330 MB at the 10th) until building one threw
 * "RangeError: Invalid string length" (eval:cuad died so, and a worker would, after about a
 * hundred million characters). Its first answer is kept and given to every instance.
 */
const STABLE_MODEL: typeof model = (() => {
  const meta: unknown = (model.metaCER as () => unknown)()
  return { ...model, metaCER: () => meta }
})()

/** Characters read by one instance before it is replaced: about 100 typical contracts. */
export const RECYCLE_CHARS = 5_000_000

type Pipe = Parameters<typeof winkNLP>[1]
type Nlp = ReturnType<typeof winkNLP>

/** A wink-nlp instance of the English lite web model with `pipe`, renewed as said above. */
export interface BoundedWink {
  /** nlp.readDoc of the current instance (renewed first when `text` would pass the bound). */
  readDoc(text: string): ReturnType<Nlp['readDoc']>
  /** The model's `its` helpers (the same for every instance). */
  readonly its: Nlp['its']
  /** How many instances have been built (1 at first): for tests and metrics. */
  readonly generation: number
}

/** Builds a BoundedWink; `recycleChars` (default RECYCLE_CHARS) bounds what one instance reads. */
export function boundedWink(pipe: Pipe, recycleChars = RECYCLE_CHARS): BoundedWink {
  let nlp = winkNLP(STABLE_MODEL, pipe)
  let read = 0
  let generation = 1
  return {
    readDoc(text: string) {
      if (read > 0 && read + text.length > recycleChars) {
        nlp = winkNLP(STABLE_MODEL, pipe)
        read = 0
        generation += 1
      }
      read += text.length
      return nlp.readDoc(text)
    },
    its: nlp.its,
    get generation() {
      return generation
    },
  }
}
