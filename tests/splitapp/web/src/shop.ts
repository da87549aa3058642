import { label, mark } from "./lib/format";
import "./shop.css";

mark("shop", label("shop"));

document.getElementById("report")!.addEventListener("click", async () => {
  try {
    const { render } = await import("./routes/report");
    mark("report", render());
  } catch (err) {
    mark("report", "failed");
    console.error("loading the report:", err);
  }
});
