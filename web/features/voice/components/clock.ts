/** `seconds` as a clock reading, m:ss ("1:05"); whole seconds, rounded down. */
export function clock(seconds: number): string {
  const whole = Math.floor(seconds)
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`
}
