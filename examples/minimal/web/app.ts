// Shows the time, updated every second: proof that the script ran.
const clock = document.getElementById("clock");

function tick(el: HTMLElement): void {
  el.textContent = `It is ${new Date().toLocaleTimeString()} in your browser.`;
}

if (clock) {
  tick(clock);
  setInterval(() => tick(clock), 1000);
}
