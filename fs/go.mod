// The runtime of the packages that bakefs generates: standard library only,
// so that an application that embeds its assets brings no other module into
// its graph. It is versioned by tags fs/vX.Y.Z (see tools/release.sh).
module github.com/bakefs/bakefs/fs

go 1.24
