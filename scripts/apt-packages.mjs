/**
 * The pieces of scripts/ensure-system.mjs that decide what apt-get is asked, kept apart so a test
 * can check them without running apt.
 */

/**
 * Seconds apt-get waits for the dpkg lock another package manager holds (an unattended upgrade,
 * a second `npm start`) before giving up: apt's own `DPkg::Lock::Timeout` (apt ≥ 1.9.11).
 */
export const APT_LOCK_TIMEOUT_S = 600

/**
 * The missing packages of `needs` (each `{ pkg, present() }`) for `mode`: the app's needs plus
 * the mode's own (`app` has none besides), each package named once, in first-listed order.
 */
export function missingPackages(needs, mode) {
  const wanted = mode === 'app' ? needs.app : [...needs.app, ...(needs[mode] ?? [])]
  return [...new Set(wanted.filter((need) => !need.present()).map((need) => need.pkg))]
}

/** apt-get's arguments for `command` ('update' or 'install' of `packages`), waiting for the lock. */
export function aptArguments(command, packages = []) {
  const wait = ['-o', `DPkg::Lock::Timeout=${APT_LOCK_TIMEOUT_S}`]
  return command === 'update'
    ? [...wait, 'update']
    : [...wait, 'install', '-y', '--no-install-recommends', ...packages]
}
