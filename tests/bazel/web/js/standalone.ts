// Transpiled on its own with the typescript step: types are removed.
enum Level {
  Low = 1,
  High = 2,
}

export function describeLevel(level: Level): string {
  return level === Level.High ? "high-level" : "low-level";
}
