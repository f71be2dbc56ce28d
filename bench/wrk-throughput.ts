/**
 * wrk (a load tool in C: one thread, an event loop over keep-alive connections) on one URL, for
 * the server bench's HTTP side (issue 28, decision 0095): the load generator shares the 2 cores
 * with the instances it measures, and wrk spends less of them per request than a Node client.
 */
import { runLoadTool } from './native-load-tool'

/**
 * wrk's Lua script: counts the answers whose status is not 200 in each thread and prints their
 * sum after the run (wrk's own "Non-2xx or 3xx" line would let a 3xx pass).
 */
const COUNT_NOT_200 = `
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) not200 = 0 end
function response(status, headers, body) if status ~= 200 then not200 = not200 + 1 end end
function done(summary, latency, requests)
  local n = 0
  for _, thread in ipairs(threads) do n = n + thread:get("not200") end
  io.write(string.format("not 200: %d\\n", n))
end
`

/**
 * Requests per second `wrk` gets from `url` with `headers` over `connections` keep-alive
 * connections on one thread for `seconds` s. Throws when wrk is missing, when any answer was
 * not 200, or on a socket error (a refused or dropped connection would flatter the rate).
 */
export async function wrkThroughput(options: {
  url: string
  headers: Record<string, string>
  connections: number
  seconds: number
}): Promise<number> {
  const headers = Object.entries(options.headers).flatMap(([name, value]) => [
    '-H',
    `${name}: ${value}`,
  ])
  const stdout = await runLoadTool({
    name: 'wrk',
    command: 'wrk',
    missing: 'wrk is missing: run `node scripts/ensure-system.mjs server` (package wrk)',
    scriptName: 'count-not-200.lua',
    script: COUNT_NOT_200,
    args: (script) => [
      ...['-t', '1', '-c', String(options.connections), '-d', `${options.seconds}s`],
      ...['-s', script, ...headers, options.url],
    ],
  })
  const not200 = /not 200: (\d+)/.exec(stdout)
  if (not200?.[1] !== '0') throw new Error(`wrk: answers other than 200:\n${stdout}`)
  if (/Socket errors/.test(stdout)) throw new Error(`wrk: socket errors:\n${stdout}`)
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(stdout)
  if (!rate?.[1]) throw new Error(`wrk printed no Requests/sec:\n${stdout}`)
  return Number(rate[1])
}
