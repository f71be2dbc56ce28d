/** Types of dependency-audit.mjs. */
export interface PackageJson {
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  scripts?: Record<string, string>
  engines?: Record<string, string>
}
export declare const USED_OTHERWISE: Record<string, string>
export declare function readPackageJson(): PackageJson
export declare function dependencyProblems(pkg?: PackageJson): Promise<string[]>
