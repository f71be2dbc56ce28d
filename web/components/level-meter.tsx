import { Progress } from './ui/progress'

/** The microphone's live input level as a bar, 0–100 percent (values above 100 show as 100). */
export function LevelMeter({ level }: { level: number }) {
  const percent = Math.min(100, Math.max(0, level))
  return <Progress value={percent} aria-label="Microphone level" className="h-1.5" />
}
