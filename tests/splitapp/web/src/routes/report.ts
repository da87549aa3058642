// Loaded on demand, when the report button is clicked.
import { label } from "../lib/format";

export function render(): string {
  const rows: string[] = [];
  for (let i = 1; i <= 3; i++) rows.push(label(`row ${i}`));
  return "report " + rows.join(" ");
}
