// A classic script: its class is a global of the page, which app.js uses.
class Gestures {
  constructor(el) {
    this.el = el
  }
  mark() {
    this.el.dataset.gestures = "on"
  }
}
