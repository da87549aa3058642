// This directory is built by Bazel only (tools/bazel-test.sh): its test
// imports Go packages that go_embed_data generates. This go.mod keeps it out
// of the main module, so that go build ./... and go vet ./... skip it.
module github.com/bakefs/bakefs/tests/bazel

go 1.26.0
