// Lint rules: typescript-eslint (type-aware off for speed), React hooks and jsx-a11y on the web side,
// and the architecture's import boundaries (docs/architecture.md) as import-x/no-restricted-paths
// zones and import-x/no-cycle: web and server apart, features apart, the server's infrastructure in
// layers, UI primitives without the API client, production code without test helpers.
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
    target: './web/components/ui',
    from: './web',
    except: ['./components/ui', './lib/utils.ts'],
    message:
      "UI primitives know nothing of Lexdesk: no API client (web/lib/api.ts, a feature's api.ts, web/lib/auth-client.ts, web/hooks/jobs.ts), no feature, no Lexdesk component; only other primitives and web/lib/utils.ts. Pass data and callbacks in as props.",
  },
  {
    target: ['./web/components', './web/lib', './web/hooks', './web/marketing'],
    from: ['./web/features', './web/app'],
    message:
      'Shared code (components, hooks, lib) and marketing pages do not import features or the app layer.',
  },
  {
    target: './web/lib',
    from: './web/hooks',
    message:
      'web/lib is the kernel (API client, auth client, org scope and paths, formatting): it does not import the shared feature hooks of web/hooks/, which build on it. Move the piece into web/lib if it is kernel, or keep the importer in web/hooks/.',
  },
  {
    target: './web/hooks',
    from: ['./web/components', './web/marketing'],
    message:
      'Shared feature hooks (web/hooks/) build on web/lib only: components may use them, not the reverse.',
  },
]

/**
 * The server's infrastructure in layers, lowest first (docs/architecture.md): production code of a
 * layer imports only lower layers, never a peer of its own layer nor anything higher, so the
 * dependencies between folders form no cycle and each folder's place says what it may use. Above
 * the last layer come server/services.ts (the wiring containers), then the features, then
 * server/app.ts and server/main.ts (composition). Every server folder but features/ and test/ must
 * appear here: a new one makes the lint fail until it is given its place.
 */
export const SERVER_LAYERS = [
  ['errors', 'types'],
  ['config.ts'],
  ['mail', 'workers', 'db', 'ops', 'media', 'temp-files', 'holds'],
  ['ai', 'audit', 'events', 'blob', 'realtime', 'lists'],
  ['jobs', 'compare'],
  ['search', 'playbooks'],
  ['documents'],
  ['http'],
  ['auth', 'health', 'uploads'],
]

const unplaced = folderNames('./server').filter(
  (name) => name !== 'features' && name !== 'test' && !SERVER_LAYERS.flat().includes(name),
)
if (unplaced.length > 0) {
  throw new Error(
    `eslint.config.js: server/${unplaced.join(', server/')} has no layer in SERVER_LAYERS; give it one there and a line in docs/architecture.md.`,
  )
}

/** Server folders that are infrastructure: every one except features/ and the test helpers. */
const serverInfrastructure = folderNames('./server')
  .filter((name) => name !== 'features' && name !== 'test')
  .map((name) => `./server/${name}`)

/** One zone per infrastructure folder or file: it may import only the layers below its own. */
const layerZones = SERVER_LAYERS.flatMap((layer, rank) =>
  layer.map((name) => ({
    target: `./server/${name}`,
    from: [
      ...layer.filter((peer) => peer !== name),
      ...SERVER_LAYERS.slice(rank + 1).flat(),
      'services.ts',
      'app.ts',
      'main.ts',
    ].map((other) => `./server/${other}`),
    message: `server/${name} is in layer ${rank} of SERVER_LAYERS (eslint.config.js, docs/architecture.md): it imports only lower layers (${SERVER_LAYERS.slice(0, rank).flat().join(', ') || 'none'}). Move the shared piece down, or receive it as a parameter from the composition (server/app.ts).`,
  })),
)

const serverZones = [
  ...isolateFeatures('./server/features'),
  {
    target: './server/features',
    from: ['./server/app.ts', './server/main.ts'],
    message:
      'Features never import the app layer: server/app.ts and server/main.ts compose features; a feature receives the services it needs.',
  },
  {
    target: [...serverInfrastructure, './server/config.ts', './server/services.ts'],
    from: './server/features',
    message:
      'Infrastructure does not import a feature: server/app.ts and server/main.ts compose features; shared pieces live in server/http/, server/audit/ or server/db/.',
  },
]

/** The two programs: the browser's and the server's share types only through the generated web/lib/api-schema.d.ts. */
const sideZones = [
  {
    target: './web',
    from: './server',
    message:
      "The web app does not import server code: it runs in the browser. Types of the API come from web/lib/api-schema.d.ts (npm run api:types), generated from the server's OpenAPI document.",
  },
  {
    target: './server',
    from: './web',
    message:
      "The server does not import web code: the web app reaches it through the HTTP API only, described by the routes' zod schemas.",
  },
]

/** Code that exists for tests only; production files never import it. */
const testHelpers = ['./server/test', './web/test']
const testFiles = ['**/*.test.ts', '**/*.test.tsx', 'server/test/**', 'web/test/**']

const productionZones = [
  {
    target: ['./server', './web'],
    from: testHelpers,
    message:
      'Production code does not import test helpers (server/test/, web/test/): a fixture or fake shipped in the app is dead weight at best and a back door at worst.',
  },
  {
    target: ['./server/**', './web/**'],
    from: ['**/*.test.ts', '**/*.test.tsx'],
    message: 'Production code does not import a test file.',
  },
]

/** The zones that hold for every file, tests included. */
const baseZones = [...webZones, ...serverZones, ...sideZones]

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
      // Packages are never parsed for their imports (no-cycle would otherwise walk node_modules).
      'import-x/ignore': ['node_modules'],
      // The source files import-x reads to follow imports (its default is JavaScript only, which
      // would leave no-cycle blind to every TypeScript module).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: baseZones }],
      // The zones act only on paths they can resolve: an import that resolves nowhere (a `.js`
      // suffix on a TypeScript file, which tsc and tsx accept) would otherwise slip past them.
      'import-x/no-unresolved': 'error',
      // A cycle between modules makes their load order decide what is undefined at start-up, and
      // hides a missing layer. Type-only imports (`import type`) are not followed: they vanish
      // at run time, and the layering zones above already order the folders they cross.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Tests may reach into any layer (a db test may build the whole app) and use test helpers;
    // production files keep to the layering and never import test code. Rule options replace,
    // not merge, so this block repeats the zones that hold everywhere.
    files: ['web/**/*.{ts,tsx}', 'server/**/*.ts'],
    ignores: testFiles,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...baseZones, ...layerZones, ...productionZones] },
      ],
    },
  },
)
