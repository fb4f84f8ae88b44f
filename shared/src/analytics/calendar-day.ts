/**
 * Whether `day` is a day of the calendar written `YYYY-MM-DD`: `2024-02-30` and `2026-13-01` are
 * not (Date.parse would roll them over), nor is year 0, which SQL dates do not have. Browser-safe:
 * the analytics API and its page decide alike.
 */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day.startsWith('0000')) return false;
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
}
