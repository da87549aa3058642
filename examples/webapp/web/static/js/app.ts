// The page's entry point: it greets, renders today's bakes from the JSON
// file the page links to, and loads the oven planner when asked.
import { greeting } from "./greeting";
import { loadBakes, renderBakes, type Bake } from "./bakes";
import { formatDuration } from "./format";

async function main(): Promise<void> {
  const started = performance.now();
  const title = document.querySelector<HTMLElement>("[data-greeting]");
  if (title) {
    title.textContent = greeting;
  }
  const list = document.querySelector<HTMLElement>("[data-bakes]");
  const status = document.querySelector<HTMLElement>("[data-status]");
  if (!list || !status) {
    return;
  }
  const url = list.dataset.bakes;
  if (!url) {
    status.textContent = "No data URL on the page.";
    return;
  }
  try {
    const bakes = await loadBakes(url);
    renderBakes(list, bakes, document.body.dataset.icons ?? "");
    status.textContent = `${bakes.length} bakes loaded in ${formatDuration(performance.now() - started)}.`;
    offerPlan(bakes);
    document.body.dataset.ready = "true";
  } catch (err) {
    status.textContent = `Could not load the bakes: ${(err as Error).message}`;
    document.body.dataset.ready = "error";
  }
}

/**
 * offerPlan shows the page's plan button; its first click loads the
 * planner module, which the first page load leaves out.
 */
function offerPlan(bakes: Bake[]): void {
  const button = document.querySelector<HTMLButtonElement>("[data-plan]");
  const out = document.querySelector<HTMLElement>("[data-plan-out]");
  if (!button || !out) {
    return;
  }
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      const { renderPlan } = await import("./planner");
      renderPlan(out, bakes);
      document.body.dataset.plan = "shown";
    } catch (err) {
      out.textContent = `Could not load the planner: ${(err as Error).message}`;
      document.body.dataset.plan = "error";
    }
  });
}

void main();
