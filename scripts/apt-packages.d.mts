/** Types of apt-packages.mjs (plain JavaScript: ensure-system.mjs runs before any TypeScript tool). */
export interface SystemNeed {
  pkg: string
  present: () => boolean
}
export declare const APT_LOCK_TIMEOUT_S: number
export declare function missingPackages(
  needs: { app: readonly SystemNeed[] } & Record<string, readonly SystemNeed[]>,
  mode: string,
): string[]
export declare function aptArguments(
  command: 'update' | 'install',
  packages?: readonly string[],
): string[]
