/** Types of build-server.mjs (plain JavaScript: `npm start` builds before any TypeScript tool runs). */
export declare const SERVER_OUT: string
export declare function serverGraph(): Promise<{
  modules: string[]
  plainEntries: string[]
  packages: string[]
}>
export declare function buildServer(outDir?: string): Promise<number>
