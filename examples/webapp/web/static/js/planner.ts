// The oven plan, shown when the visitor asks for it: a module of its own
// that the page loads with import() on the first click, so the first load
// does not carry it. bakefs bundles it into a chunk of its own
// (js/planner-<hash>.js), and formatMinutes, which the page's own modules
// use too, into a chunk that both share.
import type { Bake } from "./bakes";
import { formatMinutes } from "./format";

/**
 * renderPlan writes the order in which the bakes go into one oven, from
 * the hottest to the coolest (an oven cools faster than it heats), and the
 * oven time in all.
 */
export function renderPlan(out: HTMLElement, bakes: Bake[]): void {
  const order = [...bakes].sort((a, b) => b.temperature - a.temperature || a.name.localeCompare(b.name));
  const steps = order.map((b) => `${b.name} at ${b.temperature} °C (${formatMinutes(b.minutes)})`);
  const total = order.reduce((sum, b) => sum + b.minutes, 0);
  out.textContent = `Oven plan: ${steps.join(", then ")}; ${formatMinutes(total)} in all.`;
}
