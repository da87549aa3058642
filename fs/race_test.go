//go:build race

package fs_test

const raceEnabled = true
