/**
 * Hostile uploads from the security review of issue 29: script polyglots that ffmpeg decodes as
 * audio, playlists and concat lists that make a demuxer open other files, and an MP3 whose ID3
 * tag holds HTML. Made on the spot from real audio (test-audio.ts); nothing is downloaded.
 */
import { encodeAudio, spokenWav } from './test-audio'

/** What a polyglot's script does when it runs: a dialog and a changed title, both observable. */
export const XSS_MARKER = 'lexdesk-xss'
const SCRIPT = `document.title='${XSS_MARKER}';alert('${XSS_MARKER}');`

/** A short spoken MP3 (ffmpeg's libmp3lame, with its ID3 tag). */
export async function spokenMp3(text = 'The lease ends in June.'): Promise<Buffer> {
  return encodeAudio(await spokenWav(text), 'mp3')
}

/**
 * A file that runs as JavaScript and that ffmpeg, left to detect the format, decodes as MP3: the
 * script, then the MP3 frames inside a block comment. Throws if the frames happen to hold `*` `/`
 * (the comment would end early and the test would prove nothing).
 */
export function scriptPolyglot(mp3: Buffer): Buffer {
  if (mp3.includes('*/')) throw new Error('the MP3 holds */: pick another sentence')
  return Buffer.concat([Buffer.from(`${SCRIPT}/*`), mp3, Buffer.from('*/')])
}

/** An HTML page that loads `scriptUrl` as a script, followed by MP3 frames ffmpeg decodes. */
export function htmlPolyglot(scriptUrl: string, mp3: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<!doctype html><script src="${scriptUrl}"></script><!--`),
    mp3,
  ])
}

/** A real MP3 (ID3 magic first) whose ID3 title is an inline script: HTML if served as HTML. */
export async function mp3WithScriptTag(): Promise<Buffer> {
  const mp3 = await spokenMp3()
  // The ID3v2.4 tag ffmpeg writes keeps the title's bytes as they are (UTF-8).
  const tagged = await encodeAudio(await spokenWav('Sign here.'), 'mp3', [
    '-metadata',
    `title=<script>${SCRIPT}</script>`,
  ])
  if (!tagged.includes(`<script>${SCRIPT}</script>`) || mp3.byteLength === 0)
    throw new Error('ffmpeg did not keep the script in the ID3 tag')
  return tagged
}

/** An HLS playlist (`#EXTM3U`) whose segments are `entries` (paths or URLs). */
export function hlsPlaylist(entries: string[]): Buffer {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:10']
  for (const entry of entries) lines.push('#EXTINF:10.0,', entry)
  lines.push('#EXT-X-ENDLIST', '')
  return Buffer.from(lines.join('\n'))
}

/** An ffconcat list naming `files`. */
export function concatList(files: string[]): Buffer {
  return Buffer.from(['ffconcat version 1.0', ...files.map((f) => `file '${f}'`), ''].join('\n'))
}
