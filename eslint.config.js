// Lint rules: typescript-eslint (type-aware off for speed), React hooks and jsx-a11y on the web side,
// and the architecture's import boundaries (docs/decisions/0001-stack-and-layout.md) as
// import-x/no-restricted-paths zones, so a feature importing another feature or the app layer fails.
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import globals from 'globals'

/** Names of the folders under `dir` (read at lint time, so a new feature or folder is covered too). */
function folderNames(dir) {
  return readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
}

/** One zone per feature: it may import only from its own folder among `root`'s features. */
function isolateFeatures(root) {
  return folderNames(root).map((name) => ({
    target: `${root}/${name}`,
    from: root,
    except: [`./${name}`],
    message: `Features do not import each other: compose them in the app layer (web/app/, web/router.tsx or server/app.ts), or move the shared piece to a shared folder.`,
  }))
}

const webZones = [
  ...isolateFeatures('./web/features'),
  {
    target: './web/features',
    from: ['./web/app', './web/router.tsx', './web/main.tsx'],
    message:
      'Features never import the app layer: web/app/, web/router.tsx and web/main.tsx compose features, not the reverse.',
  },
  {
    target: ['./web/components', './web/lib', './web/marketing'],
    from: ['./web/features', './web/app'],
    message:
      'Shared code (components, lib) and marketing pages do not import features or the app layer.',
  },
]

/** Server folders that are infrastructure: every one except features/ and the test helpers. */
const serverInfrastructure = folderNames('./server')
  .filter((name) => name !== 'features' && name !== 'test')
  .map((name) => `./server/${name}`)

const serverZones = [
  ...isolateFeatures('./server/features'),
  {
    target: './server/features',
    from: ['./server/app.ts', './server/main.ts'],
    message:
      'Features never import the app layer: server/app.ts and server/main.ts compose features; a feature receives the services it needs.',
  },
  {
    target: [...serverInfrastructure, './server/config.ts'],
    from: './server/features',
    message:
      'Infrastructure does not import a feature: server/app.ts and server/main.ts compose features; shared pieces live in server/http/, server/audit/ or server/db/.',
  },
]

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'data',
      'tmp',
      'playwright-report',
      'test-results',
      'web/lib/api-schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...webZones, ...serverZones] }],
      // The zones act only on paths they can resolve: an import that resolves nowhere (a `.js`
      // suffix on a TypeScript file, which tsc and tsx accept) would otherwise slip past them.
      'import-x/no-unresolved': 'error',
    },
  },
)
