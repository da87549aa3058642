// The page's entry point: it greets, and renders today's bakes from the
// JSON file the page links to.
import { greeting } from "./greeting";
import { loadBakes, renderBakes } from "./bakes";
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
    document.body.dataset.ready = "true";
  } catch (err) {
    status.textContent = `Could not load the bakes: ${(err as Error).message}`;
    document.body.dataset.ready = "error";
  }
}

void main();
