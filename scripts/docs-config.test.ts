import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { EnvSchema } from '../server/config'
import { CONFIG_VARIABLES } from '../server/config-variables'
import {
  CONFIGURATION_PAGE,
  configurationMarkdown,
  documentedName,
  schemaVariables,
} from './docs-config'

describe('docs/configuration.md', () => {
  it('documents every variable of the configuration schema', () => {
    const undocumented = schemaVariables().filter((name) => !CONFIG_VARIABLES[documentedName(name)])
    expect(undocumented).toEqual([])
  })

  it('documents no variable the schema does not read', () => {
    const read = new Set(schemaVariables().map(documentedName))
    expect(Object.keys(CONFIG_VARIABLES).filter((name) => !read.has(name))).toEqual([])
  })

  it('states each default the schema sets, as the schema sets it', () => {
    const disagreeing = schemaVariables().flatMap((name) => {
      const schema = EnvSchema.shape[name as keyof typeof EnvSchema.shape]
      if (!(schema instanceof z.ZodDefault)) return []
      const stated = CONFIG_VARIABLES[documentedName(name)]!.default
      const value = String(schema.def.defaultValue)
      // Numbers may be written with thousands separators or a unit after them.
      return stated.replaceAll(',', '').startsWith(`\`${value}\``) ? [] : [{ name, stated, value }]
    })
    expect(disagreeing).toEqual([])
  })

  it('is the page `npm run docs:config` generates (run it after changing a variable)', async () => {
    expect(readFileSync(CONFIGURATION_PAGE, 'utf8')).toBe(await configurationMarkdown())
  })
})
