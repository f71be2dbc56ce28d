import { describe, expect, it } from 'vitest'
import { apiContractMarkdown } from './api-contract-markdown'

describe('apiContractMarkdown', () => {
  it('lists each operation sorted by path and method, with its minimum role, scope, credentials (not bound to an app where refused to one) and escaped text', () => {
    const markdown = apiContractMarkdown({
      info: { title: 'Lexdesk API', version: '1.0.0' },
      paths: {
        '/b': {
          delete: { operationId: 'removeB', security: [], responses: { 204: {} } },
          get: {
            operationId: 'listB',
            tags: ['b'],
            'x-min-role': 'member',
            'x-scope': 'read',
            security: [{ sessionCookie: [] }, { bearerAuth: ['read'] }, { apiKeyHeader: ['read'] }],
            description: "kind 'full' | 'risks'\nper line",
            responses: { 200: {}, 404: {} },
          },
        },
        '/a': {
          post: {
            operationId: 'createA',
            'x-min-role': 'admin',
            'x-scope': 'write',
            security: [{ sessionCookie: [] }],
            responses: { 201: {} },
          },
        },
        '/c': {
          get: {
            operationId: 'listC',
            'x-min-role': 'member',
            'x-scope': 'read',
            'x-app-reach': 'organisation',
            security: [{ sessionCookie: [] }, { bearerAuth: ['read'] }],
            responses: { 200: {} },
          },
        },
      },
    })
    const rows = markdown.split('\n').filter((line) => line.startsWith('| ') && line.includes('`'))
    expect(rows).toEqual([
      '| POST | `/a` | createA | — | admin | write | session only | 201 | — |',
      "| GET | `/b` | listB | b | member | read | bearerAuth, apiKeyHeader: read | 200, 404 | kind 'full' \\| 'risks' per line |",
      '| DELETE | `/b` | removeB | — | — | — | none | 204 | — |',
      '| GET | `/c` | listC | — | member | read | bearerAuth: read; not bound to an app | 200 | — |',
    ])
  })
})
