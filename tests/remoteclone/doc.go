// Package remoteclone proves that a remote cache serves a fresh checkout
// in full: two fresh git clones of this repository, each built with its
// own empty local cache against one nginx remote cache, one right after
// the other, and the second build runs no job. All of its jobs are
// answered by the remote cache, and it writes the output tree and Go
// package that the first wrote, byte for byte.
//
// A fresh clone is the case CI meets (check out, then build at once):
// every file's modification time is the moment of the clone, so every
// input is racy (pipeline/racy.go). A racy input makes the record of its
// mtime and hash untrustworthy, never the result computed from the bytes
// that were hashed; the first clone's results must reach the remote cache.
//
// The test clones the repository that holds this package (its committed
// state: uncommitted changes are not in a clone), builds the bakefs CLI
// from the working tree, and runs
//
//	bakefs build -f examples/webapp/bakefs.toml --remote-cache URL
//
// in each clone. It needs git and nginx (tools/nginx-setup.sh installs
// it; without it the test is skipped, or fails when $CI is set), and it
// fails, rather than skips, outside a git work tree. Run it with
//
//	go test -v ./tests/remoteclone/
package remoteclone
