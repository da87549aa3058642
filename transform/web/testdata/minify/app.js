/*! bakefs example — legal comment kept */
// A classic script: its top-level names are globals other scripts use.
var counter = 0;

function increment(step) {
  // local names may be shortened
  const amount = step === undefined ? 1 : step;
  counter = counter + amount;
  return counter;
}

var userName = window.user?.name ?? "anonymous";

var answer = (function () {
  if (true) {
    return 40 + 2;
  }
})();
//# sourceMappingURL=app.js.map
