/**
 * Runs a native load tool (pgbench, wrk) over a script file written for the run, for the server
 * bench (issue 28, decision 0095): the script goes to a temporary folder removed afterwards.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

/**
 * The standard output of `command` run with `args(scriptPath)`, where `scriptPath` holds
 * `script` (named `scriptName`). Throws `missing` when the command is not installed, and
 * "`name` failed: <its stderr>" when it exits non-zero.
 */
export async function runLoadTool(tool: {
  name: string
  command: string
  missing: string
  scriptName: string
  script: string
  args: (scriptPath: string) => string[]
}): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `lexdesk-${tool.name}-`))
  try {
    const scriptPath = path.join(dir, tool.scriptName)
    writeFileSync(scriptPath, tool.script)
    const { stdout } = await promisify(execFile)(tool.command, tool.args(scriptPath), {
      encoding: 'utf8',
    }).catch((error: NodeJS.ErrnoException & { stderr?: string }) => {
      if (error.code === 'ENOENT') throw new Error(tool.missing)
      throw new Error(`${tool.name} failed: ${error.stderr ?? error.message}`)
    })
    return stdout
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
