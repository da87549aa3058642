//go:build !race

package images

const raceEnabled = false
