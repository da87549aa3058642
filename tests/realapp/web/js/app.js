// Runs after gestures.js, in the same file, and uses its global.
new Gestures(document.body).mark()
document.body.dataset.app = "ran"
