/**
 * The speech engines' interfaces: a Transcriber turns audio into timed text, a Speaker turns text
 * into audio. Both are chosen per capability (AI_STT_ENGINE, AI_TTS_ENGINE; see config.ts).
 */

/** One timed piece of a transcript; `start` and `end` in seconds from the start of the audio. */
export interface TranscriptSegment {
  start: number
  end: number
  text: string
  /**
   * The engine's confidence in the segment's words, 0..1 (PocketSphinx: the mean posterior
   * probability of its words; OpenAI: e to the segment's average token log-probability); absent
   * when the engine gives none.
   */
  confidence?: number
}

/** What a Transcriber returns. `text` is the segments' texts joined by single spaces. */
export interface Transcript {
  text: string
  segments: TranscriptSegment[]
  /** The speech's language as the engine names it ('en' locally; OpenAI says 'english'). */
  language: string
  engine: string
  model: string
  /** Length of the audio in seconds. */
  durationSec: number
}

/** Cancel signal and progress reporter of a long transcription. */
export interface TranscribeOptions {
  signal?: AbortSignal
  /** `fraction` 0..1 of the audio done, `message` short and user-facing. */
  onProgress?: (fraction: number, message: string) => void
  /**
   * Work on at most this many seconds of the audio (MAX_RECORDING_MINUTES; the caller refuses
   * longer recordings, this bounds the work even where a file's timestamps lie).
   */
  maxSeconds?: number
}

/**
 * Audio handed to a Transcriber: a private file (a stored recording's temporary copy,
 * documents/with-blob-copy.ts; the demo's upload, with-audio-file.ts) that the engine reads by path or
 * streams, so no whole recording is held in the server's memory (issue 24).
 */
export interface AudioFile {
  path: string
}

/**
 * Speech to text. `audio` is a whole recording in an allowed format (media/sniff-audio.ts: WAV,
 * WebM/Matroska, Ogg, MP4/M4A, MP3, FLAC), told from its first bytes; `mime` is its type as
 * sniffed by the caller (engines sniff again and never trust it). Throws an AppError: 400
 * `bad_audio` when it is not decodable audio of an allowed format, 503 `engine_unavailable` when
 * the engine is missing, 502 `speech_failed` when the engine fails.
 */
export interface Transcriber {
  transcribe(audio: AudioFile, mime: string, options?: TranscribeOptions): Promise<Transcript>
}

/** Text to speech: MP3 audio of `text` (cut to SPEECH_MAX_CHARS) in `voice` (engine-specific). */
export interface Speaker {
  speak(text: string, voice?: string): Promise<{ audio: Uint8Array; mime: string }>
}

/** Text given to a Speaker is cut to this many characters (product spec, validation rules). */
export const SPEECH_MAX_CHARS = 4000

/** `text` cut to its first SPEECH_MAX_CHARS characters (code points, so no half emoji). */
export function speechText(text: string): string {
  const chars = Array.from(text)
  return chars.length <= SPEECH_MAX_CHARS ? text : chars.slice(0, SPEECH_MAX_CHARS).join('')
}
