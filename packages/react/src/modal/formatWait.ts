/** "20 seconds", "1 minute", "10 minutes": a number never wraps away from its unit (no-break space). */
export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds}\u00a0${seconds === 1 ? "second" : "seconds"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes}\u00a0${minutes === 1 ? "minute" : "minutes"}`;
}
