// Loaded by app.ts with import(): a chunk of its own, fetched on demand.
export function lazyReport(): string {
  return "bakefs-lazy-report";
}
